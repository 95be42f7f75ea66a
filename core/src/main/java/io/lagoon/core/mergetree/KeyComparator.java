package io.lagoon.core.mergetree;

import io.lagoon.core.types.PaimonType;
import java.io.Serializable;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Orders primary keys field by field as Paimon sorts its files: numbers numerically, strings and
 * binaries by unsigned bytes, nulls first (keys are never null, but stats rows may be).
 */
public final class KeyComparator implements Comparator<InternalRow>, Serializable {
  private final PaimonType[] types;
  /** Whether keys are one integral field, so a key orders as the long {@link #longKey} gives. */
  private final boolean singleIntegral;

  public KeyComparator(List<PaimonType> keyTypes) {
    this.types = keyTypes.toArray(new PaimonType[0]);
    this.singleIntegral = types.length == 1 && integralWidth(types[0]) > 0;
  }

  /**
   * Whether every key is one integral field (TINYINT to BIGINT, DATE, TIME, TIMESTAMP), the common
   * case, where a merge can read each key once as a long and compare longs.
   */
  public boolean singleIntegralKey() {
    return singleIntegral;
  }

  /** Bytes of the one integral key field (1, 2, 4 or 8), or 0 unless {@link #singleIntegralKey()}. */
  public int singleKeyWidth() {
    return singleIntegral ? integralWidth(types[0]) : 0;
  }

  /** The key of a {@link #singleIntegralKey()} table as a long, in the same order; never null. */
  public long longKey(InternalRow key) {
    switch (integralWidth(types[0])) {
      case 1: return key.getByte(0);
      case 2: return key.getShort(0);
      case 4: return key.getInt(0);
      default: return key.getLong(0);
    }
  }

  private static int integralWidth(PaimonType t) {
    switch (t.root()) {
      case TINYINT: return 1;
      case SMALLINT: return 2;
      case INT: case DATE: case TIME: return 4;
      case BIGINT: case TIMESTAMP: case TIMESTAMP_LTZ: return 8;
      default: return 0;
    }
  }

  @Override
  public int compare(InternalRow a, InternalRow b) {
    for (int i = 0; i < types.length; i++) {
      boolean na = a.isNullAt(i);
      boolean nb = b.isNullAt(i);
      if (na || nb) {
        if (na && nb) continue;
        return na ? -1 : 1;
      }
      int c = compareField(a, b, i, types[i]);
      if (c != 0) return c;
    }
    return 0;
  }

  /** Compares field {@code i} (non-null in both) of two rows of the same layout, as keys sort. */
  public static int compareField(InternalRow a, InternalRow b, int i, PaimonType t) {
    switch (t.root()) {
      case BOOLEAN: return Boolean.compare(a.getBoolean(i), b.getBoolean(i));
      case TINYINT: return Byte.compare(a.getByte(i), b.getByte(i));
      case SMALLINT: return Short.compare(a.getShort(i), b.getShort(i));
      case INT: case DATE: case TIME: return Integer.compare(a.getInt(i), b.getInt(i));
      case BIGINT: case TIMESTAMP: case TIMESTAMP_LTZ: return Long.compare(a.getLong(i), b.getLong(i));
      case FLOAT: return Float.compare(a.getFloat(i), b.getFloat(i));
      case DOUBLE: return Double.compare(a.getDouble(i), b.getDouble(i));
      case DECIMAL: return a.getDecimal(i, t.precision(), t.scale()).compare(b.getDecimal(i, t.precision(), t.scale()));
      case CHAR: case VARCHAR: return a.getUTF8String(i).compareTo(b.getUTF8String(i)); // unsigned byte order
      case BINARY: case VARBINARY: return compareBytes(a.getBinary(i), b.getBinary(i));
      default: throw new IllegalArgumentException("Type " + t + " cannot be part of a primary key");
    }
  }

  static int compareBytes(byte[] x, byte[] y) {
    int n = Math.min(x.length, y.length);
    for (int k = 0; k < n; k++) {
      int c = Integer.compare(x[k] & 0xff, y[k] & 0xff);
      if (c != 0) return c;
    }
    return Integer.compare(x.length, y.length);
  }
}
