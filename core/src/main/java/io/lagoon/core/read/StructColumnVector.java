package io.lagoon.core.read;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A struct column whose fields are other vectors (converted or null ones), with the nulls of the
 * struct column it was rebuilt from: a struct of a file written before its fields changed. With no
 * such column, a struct that is never null: the columns of a batch seen as one row value.
 */
public final class StructColumnVector extends ColumnVector {
  /** The column whose nulls the struct has; null when it has none. */
  private final ColumnVector in;
  private final ColumnVector[] children;

  StructColumnVector(ColumnVector in, DataType type, ColumnVector[] children) {
    super(type);
    this.in = in;
    this.children = children;
  }

  /** A struct that is never null, whose fields are these vectors. */
  public static StructColumnVector of(DataType type, ColumnVector[] children) {
    return new StructColumnVector(null, type, children);
  }

  @Override public boolean hasNull() { return in != null && in.hasNull(); }
  @Override public int numNulls() { return in == null ? 0 : in.numNulls(); }
  @Override public boolean isNullAt(int rowId) { return in != null && in.isNullAt(rowId); }
  @Override public ColumnVector getChild(int ordinal) { return children[ordinal]; }

  @Override public boolean getBoolean(int rowId) { throw notAtomic(); }
  @Override public byte getByte(int rowId) { throw notAtomic(); }
  @Override public short getShort(int rowId) { throw notAtomic(); }
  @Override public int getInt(int rowId) { throw notAtomic(); }
  @Override public long getLong(int rowId) { throw notAtomic(); }
  @Override public float getFloat(int rowId) { throw notAtomic(); }
  @Override public double getDouble(int rowId) { throw notAtomic(); }
  @Override public ColumnarArray getArray(int rowId) { throw notAtomic(); }
  @Override public ColumnarMap getMap(int ordinal) { throw notAtomic(); }
  @Override public Decimal getDecimal(int rowId, int precision, int scale) { throw notAtomic(); }
  @Override public UTF8String getUTF8String(int rowId) { throw notAtomic(); }
  @Override public byte[] getBinary(int rowId) { throw notAtomic(); }

  private static UnsupportedOperationException notAtomic() {
    return new UnsupportedOperationException("A struct column has no value of its own, only fields");
  }

  @Override
  public void close() {
    // The vectors belong to the batch they were read into.
  }
}
