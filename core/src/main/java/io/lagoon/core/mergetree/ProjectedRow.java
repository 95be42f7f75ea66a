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

  /** @param types the type of each field, for {@link #copy()} */
  public ProjectedRow(int[] sources, DataType[] types) {
    this.sources = sources;
    this.types = types;
  }

  public ProjectedRow replace(InternalRow current) {
    this.row = current;
    return this;
  }

  @Override public int numFields() { return sources.length; }
  @Override public boolean isNullAt(int i) { return sources[i] < 0 || row.isNullAt(sources[i]); }
  @Override public boolean getBoolean(int i) { return row.getBoolean(sources[i]); }
  @Override public byte getByte(int i) { return row.getByte(sources[i]); }
  @Override public short getShort(int i) { return row.getShort(sources[i]); }
  @Override public int getInt(int i) { return row.getInt(sources[i]); }
  @Override public long getLong(int i) { return row.getLong(sources[i]); }
  @Override public float getFloat(int i) { return row.getFloat(sources[i]); }
  @Override public double getDouble(int i) { return row.getDouble(sources[i]); }
  @Override public Decimal getDecimal(int i, int precision, int scale) { return row.getDecimal(sources[i], precision, scale); }
  @Override public UTF8String getUTF8String(int i) { return row.getUTF8String(sources[i]); }
  @Override public byte[] getBinary(int i) { return row.getBinary(sources[i]); }
  @Override public CalendarInterval getInterval(int i) { return row.getInterval(sources[i]); }
  @Override public InternalRow getStruct(int i, int numFields) { return row.getStruct(sources[i], numFields); }
  @Override public ArrayData getArray(int i) { return row.getArray(sources[i]); }
  @Override public MapData getMap(int i) { return row.getMap(sources[i]); }

  @Override
  public boolean dictionaryEntry(int i, DictionaryEntry into) {
    return sources[i] >= 0 && DictionaryStringVector.entryOf(row, sources[i], into);
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
