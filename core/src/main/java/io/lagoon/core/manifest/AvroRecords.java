package io.lagoon.core.manifest;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/** Field access on Avro records that tolerates fields absent from older or newer writers. */
final class AvroRecords {
  private AvroRecords() {}

  static Object get(GenericRecord r, String field) {
    Schema.Field f = r.getSchema().getField(field);
    return f == null ? null : r.get(f.pos());
  }

  static long getLong(GenericRecord r, String field) {
    Object v = get(r, field);
    if (v == null) throw new IllegalStateException("Metadata field " + field + " is missing");
    return ((Number) v).longValue();
  }

  static Long getLongOrNull(GenericRecord r, String field) {
    Object v = get(r, field);
    return v == null ? null : ((Number) v).longValue();
  }

  static Integer getIntOrNull(GenericRecord r, String field) {
    Object v = get(r, field);
    return v == null ? null : ((Number) v).intValue();
  }

  static String getString(GenericRecord r, String field) {
    Object v = get(r, field);
    return v == null ? null : v.toString();
  }

  static byte[] getBytes(GenericRecord r, String field) {
    Object v = get(r, field);
    if (v == null) return null;
    ByteBuffer b = ((ByteBuffer) v).duplicate();
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return out;
  }

  static List<String> getStrings(GenericRecord r, String field) {
    Object v = get(r, field);
    if (v == null) return null;
    List<String> out = new ArrayList<>();
    for (Object o : (List<?>) v) out.add(o == null ? null : o.toString());
    return out;
  }

  static SimpleStats readStats(GenericRecord r, String field) {
    GenericRecord s = (GenericRecord) get(r, field);
    if (s == null) return SimpleStats.EMPTY;
    Object nc = get(s, "_NULL_COUNTS");
    Long[] counts;
    if (nc == null) {
      counts = new Long[0];
    } else {
      List<?> l = (List<?>) nc;
      counts = new Long[l.size()];
      for (int i = 0; i < l.size(); i++) counts[i] = l.get(i) == null ? null : ((Number) l.get(i)).longValue();
    }
    return new SimpleStats(getBytes(s, "_MIN_VALUES"), getBytes(s, "_MAX_VALUES"), counts);
  }

  static GenericRecord writeStats(Schema schema, SimpleStats stats) {
    GenericRecord s = new GenericData.Record(schema);
    s.put("_MIN_VALUES", ByteBuffer.wrap(stats.minValues()));
    s.put("_MAX_VALUES", ByteBuffer.wrap(stats.maxValues()));
    List<Long> counts = new ArrayList<>();
    for (Long c : stats.nullCounts()) counts.add(c);
    s.put("_NULL_COUNTS", counts);
    return s;
  }
}
