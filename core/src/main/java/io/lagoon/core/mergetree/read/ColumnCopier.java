package io.lagoon.core.mergetree.read;

import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
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
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/** Copies one value of an atomic column from a read batch into an output vector, by type. */
final class ColumnCopier {
  private static final int BOOLEAN = 0;
  private static final int BYTE = 1;
  private static final int SHORT = 2;
  private static final int INT = 3;
  private static final int LONG = 4;
  private static final int FLOAT = 5;
  private static final int DOUBLE = 6;
  private static final int DECIMAL = 7;
  private static final int STRING = 8;
  private static final int BINARY = 9;

  private final int kind;
  private final int precision;
  private final int scale;

  private ColumnCopier(int kind, int precision, int scale) {
    this.kind = kind;
    this.precision = precision;
    this.scale = scale;
  }

  /** A copier for the type, or null when it is not atomic (nested values take the row path). */
  static ColumnCopier of(DataType t) {
    if (t instanceof BooleanType) return new ColumnCopier(BOOLEAN, 0, 0);
    if (t instanceof ByteType) return new ColumnCopier(BYTE, 0, 0);
    if (t instanceof ShortType) return new ColumnCopier(SHORT, 0, 0);
    if (t instanceof IntegerType || t instanceof DateType) return new ColumnCopier(INT, 0, 0);
    if (t instanceof LongType || t instanceof TimestampType || t instanceof TimestampNTZType) {
      return new ColumnCopier(LONG, 0, 0);
    }
    if (t instanceof FloatType) return new ColumnCopier(FLOAT, 0, 0);
    if (t instanceof DoubleType) return new ColumnCopier(DOUBLE, 0, 0);
    if (t instanceof DecimalType) {
      DecimalType d = (DecimalType) t;
      return new ColumnCopier(DECIMAL, d.precision(), d.scale());
    }
    if (t instanceof StringType) return new ColumnCopier(STRING, 0, 0);
    if (t instanceof BinaryType) return new ColumnCopier(BINARY, 0, 0);
    return null;
  }

  void copy(ColumnVector from, int row, WritableColumnVector to, int at) {
    if (from.isNullAt(row)) {
      to.putNull(at);
      return;
    }
    switch (kind) {
      case BOOLEAN: to.putBoolean(at, from.getBoolean(row)); break;
      case BYTE: to.putByte(at, from.getByte(row)); break;
      case SHORT: to.putShort(at, from.getShort(row)); break;
      case INT: to.putInt(at, from.getInt(row)); break;
      case LONG: to.putLong(at, from.getLong(row)); break;
      case FLOAT: to.putFloat(at, from.getFloat(row)); break;
      case DOUBLE: to.putDouble(at, from.getDouble(row)); break;
      case DECIMAL: to.putDecimal(at, from.getDecimal(row, precision, scale), precision); break;
      case STRING: {
        UTF8String s = from.getUTF8String(row);
        if (s.getBaseObject() instanceof byte[]) {
          to.putByteArray(at, (byte[]) s.getBaseObject(), (int) (s.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET),
              s.numBytes());
        } else {
          to.putByteArray(at, s.getBytes());
        }
        break;
      }
      default: to.putByteArray(at, from.getBinary(row)); break;
    }
  }
}
