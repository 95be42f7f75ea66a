package io.lagoon.core.io;

import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Collects per-column min, max and null count while a file is written. Strings keep a 16
 * character prefix (Paimon's default {@code truncate(16)} mode), the max rounded up so it still
 * bounds every value. Binary and nested columns get null counts only.
 */
public final class StatsCollector {
  static final int TRUNCATE = 16;

  private final PaimonType[] types;
  private final Object[] min;
  private final Object[] max;
  private final long[] nulls;
  private final boolean[] ranged;

  public StatsCollector(java.util.List<PaimonType> columnTypes) {
    this.types = columnTypes.toArray(new PaimonType[0]);
    int n = types.length;
    this.min = new Object[n];
    this.max = new Object[n];
    this.nulls = new long[n];
    this.ranged = new boolean[n];
    for (int i = 0; i < n; i++) ranged[i] = hasRange(types[i].root());
  }

  static boolean hasRange(TypeRoot r) {
    return !(r.isNested() || r.isBinary());
  }

  public void update(InternalRow row) {
    for (int i = 0; i < types.length; i++) {
      if (row.isNullAt(i)) {
        nulls[i]++;
        continue;
      }
      if (!ranged[i]) continue;
      Object v = read(row, i, types[i]);
      if (min[i] == null || compare(v, min[i]) < 0) min[i] = copy(v);
      if (max[i] == null || compare(v, max[i]) > 0) max[i] = copy(v);
    }
  }

  /** Min values (truncated), one per column, null where unknown. */
  public Object[] mins() {
    Object[] out = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      out[i] = min[i] instanceof UTF8String ? truncateMin((UTF8String) min[i]) : min[i];
    }
    return out;
  }

  public Object[] maxs() {
    Object[] out = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      out[i] = max[i] instanceof UTF8String ? truncateMax((UTF8String) max[i]) : max[i];
    }
    return out;
  }

  /** The stats as manifests store them: min and max as serialized BinaryRows. */
  public io.lagoon.core.manifest.SimpleStats toSimpleStats() {
    java.util.List<PaimonType> statTypes = new java.util.ArrayList<>();
    for (PaimonType t : types) statTypes.add(ranged(t) ? t : PaimonType.of(TypeRoot.BIGINT));
    return new io.lagoon.core.manifest.SimpleStats(
        io.lagoon.core.data.BinaryRows.serialize(new org.apache.spark.sql.catalyst.expressions.GenericInternalRow(mins()), statTypes),
        io.lagoon.core.data.BinaryRows.serialize(new org.apache.spark.sql.catalyst.expressions.GenericInternalRow(maxs()), statTypes),
        nullCounts());
  }

  private static boolean ranged(PaimonType t) {
    return hasRange(t.root());
  }

  public Long[] nullCounts() {
    Long[] out = new Long[types.length];
    for (int i = 0; i < types.length; i++) out[i] = nulls[i];
    return out;
  }

  static Object read(InternalRow row, int i, PaimonType t) {
    switch (t.root()) {
      case BOOLEAN: return row.getBoolean(i);
      case TINYINT: return row.getByte(i);
      case SMALLINT: return row.getShort(i);
      case INT: case DATE: case TIME: return row.getInt(i);
      case BIGINT: case TIMESTAMP: case TIMESTAMP_LTZ: return row.getLong(i);
      case FLOAT: return row.getFloat(i);
      case DOUBLE: return row.getDouble(i);
      case DECIMAL: return row.getDecimal(i, t.precision(), t.scale());
      case CHAR: case VARCHAR: return row.getUTF8String(i);
      default: throw new IllegalStateException("no range stats for " + t);
    }
  }

  private static Object copy(Object v) {
    if (v instanceof UTF8String) return ((UTF8String) v).clone();
    if (v instanceof Decimal) return ((Decimal) v).clone();
    return v;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compare(Object a, Object b) {
    return ((Comparable) a).compareTo(b);
  }

  static UTF8String truncateMin(UTF8String s) {
    return s.numChars() <= TRUNCATE ? s : s.substring(0, TRUNCATE);
  }

  /** The first 16 characters with the last one bumped up, so the result is above every value; null if impossible. */
  static UTF8String truncateMax(UTF8String s) {
    if (s.numChars() <= TRUNCATE) return s;
    String prefix = s.substring(0, TRUNCATE).toString();
    int[] cps = prefix.codePoints().toArray();
    for (int i = cps.length - 1; i >= 0; i--) {
      int next = cps[i] + 1;
      if (next >= 0xD800 && next <= 0xDFFF) next = 0xE000;
      if (next <= Character.MAX_CODE_POINT) {
        return UTF8String.fromString(new String(cps, 0, i) + new String(Character.toChars(next)));
      }
    }
    return null;
  }
}
