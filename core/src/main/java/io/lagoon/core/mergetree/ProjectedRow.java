package io.lagoon.core.mergetree;

import io.lagoon.core.io.DictionaryEntry;
import io.lagoon.core.read.DictionaryStringVector;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.CalendarInterval;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatchRow;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A read-only view of some fields of another row, without copying: field {@code i} is field
 * {@code sources[i]} of the current row, or null where {@code sources[i]} is -1. Lets a file's
 * row serve as key and value rows of a record; {@link #copy()} detaches it.
 */
public final class ProjectedRow extends InternalRow implements DictionaryEntry.Source {
  private final int[] sources;
  private final DataType[] types;
  private InternalRow row;
  /**
   * When the row is a batch's row view, the batch's vectors, read here directly: Spark's view
   * dispatches every read through one call site shared by every vector class of the JVM, which
   * the JIT can only call through a table, while the few kinds a file reader hands out are
   * inlined here. Null for other rows.
   */
  private ColumnVector[] vectors;
  private ColumnarBatchRow batchRow;

  /** @param types the type of each field, for {@link #copy()} */
  public ProjectedRow(int[] sources, DataType[] types) {
    this.sources = sources;
    this.types = types;
  }

  public ProjectedRow replace(InternalRow current) {
    // A batch's row view stays the same object from row to row (and its vectors with it).
    if (current != row) {
      row = current;
      batchRow = current instanceof ColumnarBatchRow ? (ColumnarBatchRow) current : null;
      vectors = batchRow == null ? null : DictionaryStringVector.vectorsOf(batchRow);
    }
    return this;
  }

  @Override public int numFields() { return sources.length; }

  @Override
  public boolean isNullAt(int i) {
    int s = sources[i];
    if (s < 0) return true;
    ColumnVector[] v = vectors;
    return v != null ? v[s].isNullAt(batchRow.rowId) : row.isNullAt(s);
  }

  @Override
  public boolean getBoolean(int i) {
    ColumnVector[] v = vectors;
    return v != null ? v[sources[i]].getBoolean(batchRow.rowId) : row.getBoolean(sources[i]);
  }

  @Override
  public byte getByte(int i) {
    ColumnVector[] v = vectors;
    return v != null ? v[sources[i]].getByte(batchRow.rowId) : row.getByte(sources[i]);
  }

  @Override
  public short getShort(int i) {
    ColumnVector[] v = vectors;
    return v != null ? v[sources[i]].getShort(batchRow.rowId) : row.getShort(sources[i]);
  }

  @Override
  public int getInt(int i) {
    ColumnVector[] v = vectors;
    return v != null ? v[sources[i]].getInt(batchRow.rowId) : row.getInt(sources[i]);
  }

  @Override
  public long getLong(int i) {
    ColumnVector[] v = vectors;
    return v != null ? v[sources[i]].getLong(batchRow.rowId) : row.getLong(sources[i]);
  }

  @Override
  public float getFloat(int i) {
    ColumnVector[] v = vectors;
    return v != null ? v[sources[i]].getFloat(batchRow.rowId) : row.getFloat(sources[i]);
  }

  @Override
  public double getDouble(int i) {
    ColumnVector[] v = vectors;
    return v != null ? v[sources[i]].getDouble(batchRow.rowId) : row.getDouble(sources[i]);
  }

  @Override
  public Decimal getDecimal(int i, int precision, int scale) {
    ColumnVector[] v = vectors;
    return v != null ? v[sources[i]].getDecimal(batchRow.rowId, precision, scale)
        : row.getDecimal(sources[i], precision, scale);
  }

  @Override
  public UTF8String getUTF8String(int i) {
    ColumnVector[] v = vectors;
    return v != null ? v[sources[i]].getUTF8String(batchRow.rowId) : row.getUTF8String(sources[i]);
  }

  @Override
  public byte[] getBinary(int i) {
    ColumnVector[] v = vectors;
    return v != null ? v[sources[i]].getBinary(batchRow.rowId) : row.getBinary(sources[i]);
  }

  @Override public CalendarInterval getInterval(int i) { return row.getInterval(sources[i]); }
  @Override public InternalRow getStruct(int i, int numFields) { return row.getStruct(sources[i], numFields); }
  @Override public ArrayData getArray(int i) { return row.getArray(sources[i]); }
  @Override public MapData getMap(int i) { return row.getMap(sources[i]); }

  @Override
  public boolean dictionaryEntry(int i, DictionaryEntry into) {
    int s = sources[i];
    if (s < 0) return false;
    ColumnVector[] v = vectors;
    return v != null ? DictionaryStringVector.entryOf(v[s], batchRow.rowId, into)
        : DictionaryStringVector.entryOf(row, s, into);
  }

  @Override
  public Object get(int i, DataType dataType) {
    return isNullAt(i) ? null : row.get(sources[i], dataType);
  }

  @Override
  public void setNullAt(int i) {
    throw new UnsupportedOperationException("read-only row view");
  }

  @Override
  public void update(int i, Object value) {
    throw new UnsupportedOperationException("read-only row view");
  }

  /** A detached copy: strings, binaries and nested values are copied too. */
  @Override
  public InternalRow copy() {
    Object[] out = new Object[sources.length];
    for (int i = 0; i < out.length; i++) {
      Object v = get(i, types[i]);
      if (v instanceof UTF8String) v = ((UTF8String) v).clone();
      else if (v instanceof byte[]) v = ((byte[]) v).clone();
      else if (v instanceof InternalRow) v = ((InternalRow) v).copy();
      else if (v instanceof ArrayData) v = ((ArrayData) v).copy();
      else if (v instanceof MapData) v = ((MapData) v).copy();
      out[i] = v;
    }
    return new GenericInternalRow(out);
  }
}
