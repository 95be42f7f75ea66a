package io.lagoon.core.compaction;

import io.lagoon.zorder.HilbertKey;
import io.lagoon.zorder.Interleave;
import io.lagoon.zorder.OrderBytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The z-order or Hilbert key of a row's sort columns, read straight from the row by position and
 * type (no value is boxed): each column's order-preserving bytes ({@link OrderBytes}; strings and
 * binary by a prefix of {@code zorder.var-length-contribution} bytes), then interleaved or mapped
 * to the Hilbert curve. One encoder per task; the returned array is the only allocation per row.
 */
public final class SortKeyEncoder implements java.io.Serializable {
  public enum Curve { ZORDER, HILBERT }

  private final Curve curve;
  private final int[] ordinals;
  private final DataType[] types;
  private final int[] lengths;
  private final int varLength;
  private transient byte[] columns;
  private transient Interleave interleave;
  private transient HilbertKey hilbert;
  private transient long[] coords;

  /**
   * @param varLength bytes of a string or binary value that count
   * @throws IllegalArgumentException naming a column that does not exist or whose type has no order key
   */
  public SortKeyEncoder(StructType schema, List<String> sortColumns, Curve curve, int varLength) {
    this.curve = curve;
    this.varLength = varLength;
    this.ordinals = new int[sortColumns.size()];
    this.types = new DataType[sortColumns.size()];
    this.lengths = new int[sortColumns.size()];
    List<String> names = new ArrayList<>();
    for (StructField f : schema.fields()) names.add(f.name());
    for (int i = 0; i < sortColumns.size(); i++) {
      String c = sortColumns.get(i);
      int at = -1;
      for (int j = 0; j < names.size(); j++) if (names.get(j).equalsIgnoreCase(c)) at = j;
      if (at < 0) throw new IllegalArgumentException("Column '" + c + "' does not exist; the columns are " + names);
      ordinals[i] = at;
      types[i] = schema.fields()[at].dataType();
      lengths[i] = length(c, types[i], varLength);
    }
  }

  private static int length(String column, DataType t, int varLength) {
    if (t instanceof BooleanType || t instanceof ByteType) return 1;
    if (t instanceof ShortType) return 2;
    if (t instanceof IntegerType || t instanceof DateType || t instanceof FloatType) return 4;
    if (t instanceof LongType || t instanceof TimestampType || t instanceof TimestampNTZType || t instanceof DoubleType) return 8;
    if (t instanceof DecimalType) return OrderBytes.decimalLength(((DecimalType) t).precision());
    if (t instanceof StringType || t instanceof BinaryType) return varLength;
    throw new IllegalArgumentException("Column '" + column + "' of type " + t.simpleString().toUpperCase(Locale.ROOT)
        + " cannot be sorted by z-order or Hilbert key (only numbers, dates, timestamps, strings, binary and booleans)");
  }

  /** Bytes of a key. */
  public int length() {
    return curve == Curve.ZORDER ? interleave().length() : hilbert().length();
  }

  private Interleave interleave() {
    if (interleave == null) interleave = new Interleave(lengths);
    return interleave;
  }

  private HilbertKey hilbert() {
    if (hilbert == null) {
      hilbert = new HilbertKey(ordinals.length, 64);
      coords = new long[ordinals.length];
    }
    return hilbert;
  }

  public byte[] key(InternalRow row) {
    if (columns == null) {
      int total = 0;
      for (int l : lengths) total += l;
      columns = new byte[total];
    }
    int off = 0;
    for (int i = 0; i < ordinals.length; i++) {
      put(row, i, off);
      off += lengths[i];
    }
    byte[] out = new byte[length()];
    if (curve == Curve.ZORDER) {
      interleave().apply(columns, 0, out, 0);
    } else {
      HilbertKey h = hilbert();
      int o = 0;
      for (int i = 0; i < ordinals.length; i++) {
        coords[i] = HilbertKey.coordinate(columns, o, lengths[i]);
        o += lengths[i];
      }
      h.apply(coords, out, 0);
    }
    return out;
  }

  private void put(InternalRow row, int i, int off) {
    int ord = ordinals[i];
    DataType t = types[i];
    if (row.isNullAt(ord)) {
      OrderBytes.putNull(columns, off, lengths[i]);
    } else if (t instanceof IntegerType || t instanceof DateType) {
      OrderBytes.putInt(row.getInt(ord), columns, off);
    } else if (t instanceof LongType || t instanceof TimestampType || t instanceof TimestampNTZType) {
      OrderBytes.putLong(row.getLong(ord), columns, off);
    } else if (t instanceof StringType) {
      UTF8String s = row.getUTF8String(ord);
      putPrefix(s, off, lengths[i]);
    } else if (t instanceof DoubleType) {
      OrderBytes.putDouble(row.getDouble(ord), columns, off);
    } else if (t instanceof FloatType) {
      OrderBytes.putFloat(row.getFloat(ord), columns, off);
    } else if (t instanceof DecimalType) {
      DecimalType d = (DecimalType) t;
      if (d.precision() <= 18) OrderBytes.putLong(row.getDecimal(ord, d.precision(), d.scale()).toUnscaledLong(), columns, off);
      else OrderBytes.putBigDecimalUnscaled(row.getDecimal(ord, d.precision(), d.scale()).toJavaBigDecimal().unscaledValue(),
          columns, off);
    } else if (t instanceof ShortType) {
      OrderBytes.putShort(row.getShort(ord), columns, off);
    } else if (t instanceof ByteType) {
      OrderBytes.putByte(row.getByte(ord), columns, off);
    } else if (t instanceof BooleanType) {
      OrderBytes.putBoolean(row.getBoolean(ord), columns, off);
    } else {
      byte[] b = row.getBinary(ord);
      OrderBytes.putPrefix(b, 0, b.length, columns, off, lengths[i]);
    }
  }

  /** A string's first bytes, copied out of its memory without materializing it. */
  private void putPrefix(UTF8String s, int off, int len) {
    int n = Math.min(len, s.numBytes());
    org.apache.spark.unsafe.Platform.copyMemory(s.getBaseObject(), s.getBaseOffset(), columns,
        org.apache.spark.unsafe.Platform.BYTE_ARRAY_OFFSET + off, n);
    if (n < len) java.util.Arrays.fill(columns, off + n, off + len, (byte) 0);
  }
}
