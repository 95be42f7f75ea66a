package io.lagoon.core.read;

import org.apache.spark.sql.catalyst.expressions.BoundReference;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.EvalMode;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
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
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A column of a file written before its type changed, seen as the current type: integer and
 * floating-point widenings convert directly, other changes go value by value through Spark's cast
 * (the rules Spark SQL applies to the same types). Only columns of atomic types are cast this way.
 */
final class CastColumnVector extends ColumnVector {
  private final ColumnVector in;
  private final DataType from;
  private final Cast cast;
  /** Whether a non-null value can cast to null (a legacy cast of an unfit value); never for widenings. */
  private final boolean mayTurnNull;
  private final GenericInternalRow one = new GenericInternalRow(1);

  CastColumnVector(ColumnVector in, DataType from, DataType to) {
    super(to);
    if (!atomic(from) || !atomic(to)) {
      throw new UnsupportedOperationException("A column written as " + from.sql() + " is read as " + to.sql()
          + " only row by row (set spark.sql.parquet.enableVectorizedReader=false to read it)");
    }
    this.in = in;
    this.from = from;
    this.cast = new Cast(new BoundReference(0, from, true), to, scala.Option.apply("UTC"), EvalMode.LEGACY());
    this.mayTurnNull = !Cast.canUpCast(from, to);
  }

  private static boolean atomic(DataType t) {
    return t instanceof BooleanType || t instanceof ByteType || t instanceof ShortType || t instanceof IntegerType
        || t instanceof LongType || t instanceof FloatType || t instanceof DoubleType || t instanceof DecimalType
        || t instanceof StringType || t instanceof BinaryType || t instanceof DateType || t instanceof TimestampType
        || t instanceof TimestampNTZType;
  }

  /** The value at a row, cast; null when the cast gives null (a legacy cast of an unfit value). */
  private Object cast(int rowId) {
    one.update(0, in.isNullAt(rowId) ? null : value(rowId));
    return cast.eval(one);
  }

  private Object value(int rowId) {
    if (from instanceof BooleanType) return in.getBoolean(rowId);
    if (from instanceof ByteType) return in.getByte(rowId);
    if (from instanceof ShortType) return in.getShort(rowId);
    if (from instanceof IntegerType || from instanceof DateType) return in.getInt(rowId);
    if (from instanceof LongType || from instanceof TimestampType || from instanceof TimestampNTZType) return in.getLong(rowId);
    if (from instanceof FloatType) return in.getFloat(rowId);
    if (from instanceof DoubleType) return in.getDouble(rowId);
    if (from instanceof DecimalType) {
      DecimalType d = (DecimalType) from;
      return in.getDecimal(rowId, d.precision(), d.scale());
    }
    if (from instanceof StringType) return in.getUTF8String(rowId);
    return in.getBinary(rowId);
  }

  @Override
  public boolean hasNull() {
    return true;
  }

  @Override
  public int numNulls() {
    throw new UnsupportedOperationException("numNulls of a cast column");
  }

  @Override
  public boolean isNullAt(int rowId) {
    // Asked for every value: cast only where the cast itself may give null.
    return in.isNullAt(rowId) || mayTurnNull && cast(rowId) == null;
  }

  @Override public boolean getBoolean(int rowId) { return (Boolean) cast(rowId); }
  @Override public byte getByte(int rowId) { return (Byte) cast(rowId); }
  @Override public short getShort(int rowId) {
    if (from instanceof ByteType) return in.getByte(rowId);
    return (Short) cast(rowId);
  }

  @Override
  public int getInt(int rowId) {
    if (from instanceof ByteType) return in.getByte(rowId);
    if (from instanceof ShortType) return in.getShort(rowId);
    return (Integer) cast(rowId);
  }

  @Override
  public long getLong(int rowId) {
    if (from instanceof ByteType) return in.getByte(rowId);
    if (from instanceof ShortType) return in.getShort(rowId);
    if (from instanceof IntegerType) return in.getInt(rowId);
    return (Long) cast(rowId);
  }

  @Override public float getFloat(int rowId) { return (Float) cast(rowId); }

  @Override
  public double getDouble(int rowId) {
    if (from instanceof FloatType) return in.getFloat(rowId);
    if (from instanceof IntegerType) return in.getInt(rowId);
    return (Double) cast(rowId);
  }

  @Override public Decimal getDecimal(int rowId, int precision, int scale) { return (Decimal) cast(rowId); }
  @Override public UTF8String getUTF8String(int rowId) { return (UTF8String) cast(rowId); }
  @Override public byte[] getBinary(int rowId) { return (byte[]) cast(rowId); }
  @Override public ColumnarArray getArray(int rowId) { throw new UnsupportedOperationException("array cast"); }
  @Override public ColumnarMap getMap(int ordinal) { throw new UnsupportedOperationException("map cast"); }
  @Override public ColumnVector getChild(int ordinal) { throw new UnsupportedOperationException("struct cast"); }

  @Override
  public void close() {
    // The wrapped vector belongs to its reader's batch.
  }
}
