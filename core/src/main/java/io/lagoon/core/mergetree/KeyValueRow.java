package io.lagoon.core.mergetree;

import io.lagoon.core.io.DictionaryEntry;
import io.lagoon.core.mergetree.engine.KeyValue;
import org.apache.spark.sql.catalyst.InternalRow;

import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.CalendarInterval;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A record as the physical row of a key-value file ({@code _KEY_*}, {@code _SEQUENCE_NUMBER},
 * {@code _VALUE_KIND}, values), viewed without copying, for the format writers.
 */
final class KeyValueRow extends InternalRow implements DictionaryEntry.Source {
  private final int keyArity;
  private final int valueArity;
  private KeyValue kv;

  KeyValueRow(int keyArity, int valueArity) {
    this.keyArity = keyArity;
    this.valueArity = valueArity;
  }

  KeyValueRow replace(KeyValue record) {
    this.kv = record;
    return this;
  }

  /** The row and position a physical field comes from; -1/-2 mean sequence/kind. */
  private InternalRow rowOf(int i) {
    return i < keyArity ? kv.key() : kv.value();
  }

  private int posOf(int i) {
    return i < keyArity ? i : i - keyArity - 2;
  }

  @Override public int numFields() { return keyArity + 2 + valueArity; }

  @Override
  public boolean isNullAt(int i) {
    if (i == keyArity || i == keyArity + 1) return false;
    return rowOf(i).isNullAt(posOf(i));
  }

  @Override public boolean getBoolean(int i) { return rowOf(i).getBoolean(posOf(i)); }

  @Override
  public byte getByte(int i) {
    return i == keyArity + 1 ? kv.rowKind() : rowOf(i).getByte(posOf(i));
  }

  @Override public short getShort(int i) { return rowOf(i).getShort(posOf(i)); }
  @Override public int getInt(int i) { return rowOf(i).getInt(posOf(i)); }

  @Override
  public long getLong(int i) {
    return i == keyArity ? kv.sequence() : rowOf(i).getLong(posOf(i));
  }

  @Override public float getFloat(int i) { return rowOf(i).getFloat(posOf(i)); }
  @Override public double getDouble(int i) { return rowOf(i).getDouble(posOf(i)); }
  @Override public Decimal getDecimal(int i, int p, int s) { return rowOf(i).getDecimal(posOf(i), p, s); }
  @Override public UTF8String getUTF8String(int i) { return rowOf(i).getUTF8String(posOf(i)); }
  @Override public byte[] getBinary(int i) { return rowOf(i).getBinary(posOf(i)); }
  @Override public CalendarInterval getInterval(int i) { return rowOf(i).getInterval(posOf(i)); }
  @Override public InternalRow getStruct(int i, int n) { return rowOf(i).getStruct(posOf(i), n); }
  @Override public ArrayData getArray(int i) { return rowOf(i).getArray(posOf(i)); }
  @Override public MapData getMap(int i) { return rowOf(i).getMap(posOf(i)); }

  @Override
  public boolean dictionaryEntry(int i, DictionaryEntry into) {
    if (i == keyArity || i == keyArity + 1) return false;
    InternalRow r = rowOf(i);
    return r instanceof DictionaryEntry.Source && ((DictionaryEntry.Source) r).dictionaryEntry(posOf(i), into);
  }

  @Override
  public Object get(int i, DataType type) {
    if (i == keyArity) return kv.sequence();
    if (i == keyArity + 1) return kv.rowKind();
    return rowOf(i).isNullAt(posOf(i)) ? null : rowOf(i).get(posOf(i), type);
  }

  @Override
  public void setNullAt(int i) {
    throw new UnsupportedOperationException("read-only row view");
  }

  @Override
  public void update(int i, Object value) {
    throw new UnsupportedOperationException("read-only row view");
  }

  @Override
  public InternalRow copy() {
    throw new UnsupportedOperationException("a view for writers; copy the record instead");
  }

}
