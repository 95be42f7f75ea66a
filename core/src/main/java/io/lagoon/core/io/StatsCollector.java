package io.lagoon.core.io;

import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Collects per-column min, max and null count while a file is written. Strings keep a 16
 * character prefix (Paimon's default {@code truncate(16)} mode), the max rounded up so it still
 * bounds every value. Binary and nested columns get null counts only. Columns whose stats the
 * file's footer keeps exactly ({@link FormatWriter#footerKeepsStats}) are not looked at per row:
 * their stats are read from the footer once the file is closed.
 */
public final class StatsCollector {
  static final int TRUNCATE = 16;
  /** How a column's range is kept: primitives in arrays (no boxing per value), the rest as objects. */
  private static final byte LONG = 0;
  private static final byte DOUBLE = 1;
  private static final byte OBJECT = 2;
  private static final byte NO_RANGE = 3;

  private final PaimonType[] types;
  private final byte[] lanes;
  private final boolean[] seen;
  private final long[] longMin;
  private final long[] longMax;
  private final double[] doubleMin;
  private final double[] doubleMax;
  private final Object[] min;
  private final Object[] max;
  private final long[] nulls;
  /** The written file and the file column of this collector's first column, or null. */
  private final FormatWriter file;
  private final int firstColumn;
  /** The columns compared per row; the others come from the file's footer. */
  private final int[] collected;
  /** Per column, whether its stats come from the footer. */
  private final boolean[] fromFooter;
  /** The footer's stats of those columns, read on first use after close. */
  private FooterStats[] footer;

  public StatsCollector(java.util.List<PaimonType> columnTypes) {
    this(columnTypes, null, 0);
  }

  /**
   * Stats of the file columns {@code firstColumn ..} written by {@code file}; {@link #mins},
   * {@link #maxs}, {@link #nullCounts} and {@link #toSimpleStats} only after it is closed.
   */
  public StatsCollector(java.util.List<PaimonType> columnTypes, FormatWriter file, int firstColumn) {
    this.types = columnTypes.toArray(new PaimonType[0]);
    this.file = file;
    this.firstColumn = firstColumn;
    int n = types.length;
    this.fromFooter = new boolean[n];
    int[] perRow = new int[n];
    int count = 0;
    for (int i = 0; i < n; i++) {
      fromFooter[i] = file != null && file.footerKeepsStats(types[i]);
      if (!fromFooter[i]) perRow[count++] = i;
    }
    this.collected = java.util.Arrays.copyOf(perRow, count);
    this.lanes = new byte[n];
    this.seen = new boolean[n];
    this.longMin = new long[n];
    this.longMax = new long[n];
    this.doubleMin = new double[n];
    this.doubleMax = new double[n];
    this.min = new Object[n];
    this.max = new Object[n];
    this.nulls = new long[n];
    for (int i = 0; i < n; i++) lanes[i] = lane(types[i].root());
  }

  private static byte lane(TypeRoot r) {
    if (!hasRange(r)) return NO_RANGE;
    switch (r) {
      case BOOLEAN: case TINYINT: case SMALLINT: case INT: case DATE: case TIME:
      case BIGINT: case TIMESTAMP: case TIMESTAMP_LTZ:
        return LONG;
      case FLOAT: case DOUBLE:
        return DOUBLE;
      default:
        return OBJECT;
    }
  }

  static boolean hasRange(TypeRoot r) {
    return !(r.isNested() || r.isBinary());
  }

  public void update(InternalRow row) {
    for (int i : collected) {
      if (row.isNullAt(i)) {
        nulls[i]++;
        continue;
      }
      switch (lanes[i]) {
        case LONG: {
          long v = readLong(row, i, types[i].root());
          if (!seen[i]) {
            longMin[i] = v;
            longMax[i] = v;
            seen[i] = true;
          } else if (v < longMin[i]) {
            longMin[i] = v;
          } else if (v > longMax[i]) {
            longMax[i] = v;
          }
          break;
        }
        case DOUBLE: {
          // Widening keeps a float's order, NaN and -0.0; Double.compare orders as Float.compare.
          double v = types[i].root() == TypeRoot.FLOAT ? row.getFloat(i) : row.getDouble(i);
          if (!seen[i]) {
            doubleMin[i] = v;
            doubleMax[i] = v;
            seen[i] = true;
          } else if (Double.compare(v, doubleMin[i]) < 0) {
            doubleMin[i] = v;
          } else if (Double.compare(v, doubleMax[i]) > 0) {
            doubleMax[i] = v;
          }
          break;
        }
        case OBJECT: {
          Object v = read(row, i, types[i]);
          if (min[i] == null || compare(v, min[i]) < 0) min[i] = copy(v);
          if (max[i] == null || compare(v, max[i]) > 0) max[i] = copy(v);
          break;
        }
        default:
          break;
      }
    }
  }

  private static long readLong(InternalRow row, int i, TypeRoot r) {
    switch (r) {
      case BOOLEAN: return row.getBoolean(i) ? 1 : 0;
      case TINYINT: return row.getByte(i);
      case SMALLINT: return row.getShort(i);
      case INT: case DATE: case TIME: return row.getInt(i);
      default: return row.getLong(i);
    }
  }

  /** A primitive lane's value as the boxed Catalyst value of the column's type. */
  private Object boxed(int i, boolean lowest) {
    if (!seen[i]) return null;
    TypeRoot r = types[i].root();
    if (lanes[i] == DOUBLE) {
      double d = lowest ? doubleMin[i] : doubleMax[i];
      return r == TypeRoot.FLOAT ? (Object) (float) d : (Object) d;
    }
    long v = lowest ? longMin[i] : longMax[i];
    switch (r) {
      case BOOLEAN: return v != 0;
      case TINYINT: return (byte) v;
      case SMALLINT: return (short) v;
      case INT: case DATE: case TIME: return (int) v;
      default: return v;
    }
  }

  private Object rawMin(int i) {
    FooterStats f = footer(i);
    if (f != null) return f.min;
    return lanes[i] == LONG || lanes[i] == DOUBLE ? boxed(i, true) : min[i];
  }

  private Object rawMax(int i) {
    FooterStats f = footer(i);
    if (f != null) return f.max;
    return lanes[i] == LONG || lanes[i] == DOUBLE ? boxed(i, false) : max[i];
  }

  /** Number of columns compared per row (the rest come from the footer). */
  int collectedPerRow() {
    return collected.length;
  }

  /**
   * The footer's stats of column {@code i} when it is not collected per row, read once after the
   * file is closed; {@link #UNKNOWN} when the footer has none.
   */
  private FooterStats footer(int i) {
    if (!fromFooter[i]) return null;
    if (footer == null) footer = new FooterStats[types.length];
    if (footer[i] == null) {
      FooterStats f = file.footerStats(firstColumn + i);
      footer[i] = f == null ? UNKNOWN : f;
    }
    return footer[i];
  }

  /** A column whose footer kept no stats: min, max and null count unknown (nothing is pruned by it). */
  private static final FooterStats UNKNOWN = new FooterStats(null, null, -1);

  /** Min values (truncated), one per column, null where unknown. */
  public Object[] mins() {
    Object[] out = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      Object v = rawMin(i);
      out[i] = v instanceof UTF8String ? truncateMin((UTF8String) v) : v;
    }
    return out;
  }

  public Object[] maxs() {
    Object[] out = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      Object v = rawMax(i);
      out[i] = v instanceof UTF8String ? truncateMax((UTF8String) v) : v;
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
    for (int i = 0; i < types.length; i++) {
      FooterStats f = footer(i);
      out[i] = f == null ? (Long) nulls[i] : f == UNKNOWN ? null : (Long) f.nulls;
    }
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
