package io.lagoon.core.read;

import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Some rows of another column vector, without copying: row {@code i} is row
 * {@code selection[i]} of the source. Lets a batch drop deleted rows and stay columnar.
 */
public final class SelectedColumnVector extends ColumnVector {
  private final ColumnVector source;
  private final int[] selection;
  private final int rows;
  /** Asked once: most columns have no nulls, and Spark asks about every row. */
  private final boolean anyNull;
  private ColumnVector[] children;

  public SelectedColumnVector(ColumnVector source, int[] selection, int rows) {
    super(source.dataType());
    this.source = source;
    this.selection = selection;
    this.rows = rows;
    this.anyNull = source.hasNull();
  }

  @Override public void close() { }
  @Override public boolean hasNull() { return anyNull; }

  @Override
  public int numNulls() {
    if (!anyNull) return 0;
    int n = 0;
    for (int i = 0; i < rows; i++) if (source.isNullAt(selection[i])) n++;
    return n;
  }

  @Override public boolean isNullAt(int rowId) { return anyNull && source.isNullAt(selection[rowId]); }
  @Override public boolean getBoolean(int rowId) { return source.getBoolean(selection[rowId]); }
  @Override public byte getByte(int rowId) { return source.getByte(selection[rowId]); }
  @Override public short getShort(int rowId) { return source.getShort(selection[rowId]); }
  @Override public int getInt(int rowId) { return source.getInt(selection[rowId]); }
  @Override public long getLong(int rowId) { return source.getLong(selection[rowId]); }
  @Override public float getFloat(int rowId) { return source.getFloat(selection[rowId]); }
  @Override public double getDouble(int rowId) { return source.getDouble(selection[rowId]); }
  @Override public ColumnarArray getArray(int rowId) { return source.getArray(selection[rowId]); }
  @Override public ColumnarMap getMap(int ordinal) { return source.getMap(selection[ordinal]); }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    return source.getDecimal(selection[rowId], precision, scale);
  }

  @Override public UTF8String getUTF8String(int rowId) { return source.getUTF8String(selection[rowId]); }
  @Override public byte[] getBinary(int rowId) { return source.getBinary(selection[rowId]); }

  /** A struct's fields, selected alike (Spark reads a struct row field by field through them). */
  @Override
  public ColumnVector getChild(int ordinal) {
    if (children == null) {
      int n = source.dataType() instanceof org.apache.spark.sql.types.StructType
          ? ((org.apache.spark.sql.types.StructType) source.dataType()).fields().length : 3;
      children = new ColumnVector[n];
    }
    if (children[ordinal] == null) children[ordinal] = new SelectedColumnVector(source.getChild(ordinal), selection, rows);
    return children[ordinal];
  }
}
