package io.lagoon.core.read;

import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The row positions of a batch whose rows are consecutive in their file from {@code first}, as a
 * BIGINT column, nothing materialized: row {@code i} is {@code first + i}, or
 * {@code first + selection[i]} when deleted rows were left out.
 */
final class PositionColumnVector extends ColumnVector {
  private final long first;
  private final int[] selection;

  /** @param selection the batch rows kept, or null for all */
  PositionColumnVector(long first, int[] selection) {
    super(DataTypes.LongType);
    this.first = first;
    this.selection = selection;
  }

  @Override public void close() { }
  @Override public boolean hasNull() { return false; }
  @Override public int numNulls() { return 0; }
  @Override public boolean isNullAt(int rowId) { return false; }
  @Override public long getLong(int rowId) { return first + (selection == null ? rowId : selection[rowId]); }

  private static UnsupportedOperationException notLong() {
    return new UnsupportedOperationException("A row-position column holds BIGINT values only");
  }

  @Override public boolean getBoolean(int rowId) { throw notLong(); }
  @Override public byte getByte(int rowId) { throw notLong(); }
  @Override public short getShort(int rowId) { throw notLong(); }
  @Override public int getInt(int rowId) { throw notLong(); }
  @Override public float getFloat(int rowId) { throw notLong(); }
  @Override public double getDouble(int rowId) { throw notLong(); }
  @Override public ColumnarArray getArray(int rowId) { throw notLong(); }
  @Override public ColumnarMap getMap(int ordinal) { throw notLong(); }
  @Override public Decimal getDecimal(int rowId, int precision, int scale) { throw notLong(); }
  @Override public UTF8String getUTF8String(int rowId) { throw notLong(); }
  @Override public byte[] getBinary(int rowId) { throw notLong(); }
  @Override public ColumnVector getChild(int ordinal) { throw notLong(); }
}
