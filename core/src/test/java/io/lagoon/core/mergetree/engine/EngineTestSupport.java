package io.lagoon.core.mergetree.engine;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.SparkTypes;
import io.lagoon.core.types.TypeRoot;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/** Builders for schemas, records and merges shared by the engine tests. */
final class EngineTestSupport {
  private EngineTestSupport() {}

  static final PaimonType INT = PaimonType.of(TypeRoot.INT);
  static final PaimonType BIGINT = PaimonType.of(TypeRoot.BIGINT);
  static final PaimonType STRING = PaimonType.of(TypeRoot.VARCHAR);
  static final PaimonType BOOLEAN = PaimonType.of(TypeRoot.BOOLEAN);
  static final PaimonType DOUBLE = PaimonType.of(TypeRoot.DOUBLE);

  /** Fields named and typed by pairs: "id", INT, "v", STRING, ... (ids 0, 1, ...). */
  static List<DataField> fields(Object... nameTypePairs) {
    List<DataField> out = new ArrayList<>();
    for (int i = 0; i < nameTypePairs.length; i += 2) {
      out.add(new DataField(i / 2, (String) nameTypePairs[i], (PaimonType) nameTypePairs[i + 1]));
    }
    return out;
  }

  static Map<String, String> opts(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  static UTF8String s(String v) {
    return v == null ? null : UTF8String.fromString(v);
  }

  static Decimal dec(String v, int p, int sc) {
    return Decimal.apply(new BigDecimal(v), p, sc);
  }

  static InternalRow row(Object... values) {
    return new GenericInternalRow(values);
  }

  /** A record whose key is the first column's value. */
  static KeyValue kv(byte kind, long seq, Object... values) {
    return new KeyValue(row(values[0]), seq, kind, row(values));
  }

  static KeyValue ins(long seq, Object... values) {
    return kv(KeyValue.INSERT, seq, values);
  }

  static KeyValue upd(long seq, Object... values) {
    return kv(KeyValue.UPDATE_AFTER, seq, values);
  }

  static KeyValue ub(long seq, Object... values) {
    return kv(KeyValue.UPDATE_BEFORE, seq, values);
  }

  static KeyValue del(long seq, Object... values) {
    return kv(KeyValue.DELETE, seq, values);
  }

  private static final Map<List<DataField>, UnsafeProjection> PROJECTIONS = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * Merges records in the given order, feeding each one through a single reused
   * {@link org.apache.spark.sql.catalyst.expressions.UnsafeRow} (the way a real reader hands rows
   * over), so a merge function that forgets to copy sees its values overwritten.
   */
  static KeyValue mergeReusing(MergeFunction mf, List<DataField> fields, List<KeyValue> records) {
    UnsafeProjection proj = PROJECTIONS.computeIfAbsent(fields, f -> UnsafeProjection.create(SparkTypes.toSpark(f)));
    GenericInternalRow key = new GenericInternalRow(1);
    // Grow the projection's buffer first so that every record below is written over the same bytes.
    proj.apply(scramble(fields, "#".repeat(2000)));
    mf.reset();
    for (KeyValue r : records) {
      InternalRow reused = proj.apply(r.value());
      key.update(0, r.key() == null ? null : r.key().get(0, SparkTypes.toSpark(fields.get(0).type())));
      mf.add(new KeyValue(key, r.sequence(), r.rowKind(), reused));
    }
    KeyValue out = mf.result();
    // Scribble over the reused row once more: the result must not change.
    if (!records.isEmpty()) {
      proj.apply(scramble(fields, "#"));
      key.update(0, null);
    }
    return out;
  }

  /** A row of odd values of the right types, used to overwrite reused buffers. */
  static InternalRow scramble(List<DataField> fields, String filler) {
    Object[] v = new Object[fields.size()];
    for (int i = 0; i < v.length; i++) {
      switch (fields.get(i).type().root()) {
        case VARCHAR: case CHAR: v[i] = s(filler); break;
        case INT: case DATE: v[i] = -777; break;
        case BIGINT: case TIMESTAMP: case TIMESTAMP_LTZ: v[i] = -777L; break;
        case DOUBLE: v[i] = -777.0; break;
        case BOOLEAN: v[i] = false; break;
        default: v[i] = null;
      }
    }
    return new GenericInternalRow(v);
  }

  /** Merges records in the given order with fresh generic rows. */
  static KeyValue merge(MergeFunction mf, List<KeyValue> records) {
    return mf.merge(records);
  }

  /** The values of a result row as Java objects (UTF8String as String, Decimal as BigDecimal). */
  static List<Object> values(KeyValue kv, List<DataField> fields) {
    if (kv == null) {
      return null;
    }
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      Object v = Values.getter(i, fields.get(i).type()).get(kv.value());
      out.add(plain(v));
    }
    return out;
  }

  static Object plain(Object v) {
    if (v instanceof UTF8String) {
      return v.toString();
    }
    if (v instanceof Decimal) {
      return ((Decimal) v).toJavaBigDecimal();
    }
    return v;
  }

  static List<Object> list(Object... values) {
    return Arrays.asList(values);
  }
}
