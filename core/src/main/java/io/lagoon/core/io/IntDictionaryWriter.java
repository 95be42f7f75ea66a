package io.lagoon.core.io;

import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.dictionary.IntList;
import org.apache.parquet.column.values.plain.PlainValuesWriter;

/**
 * Parquet's dictionary encoder for 32-bit integers (ints, dates, small decimals, bytes and
 * shorts), with a cheaper lookup of each value's id. Parquet's own goes through a linked hash map
 * behind an interface for every value; a key-value file's row kind column repeats one value for
 * every row, and a table's small codes and quantities repeat a few. Here the last value's id is
 * kept (a run of equal values is one compare each), and the others are found in one open-addressed
 * array holding value and id side by side. Ids are given in the same order (first seen, first
 * numbered), and the dictionary page and a fall-back to plain encoding write the values as
 * Parquet's writer does, from the values by id (Parquet's map stays empty), so the bytes are
 * exactly Parquet's.
 */
final class IntDictionaryWriter extends DictionaryValuesWriter.PlainIntegerDictionaryValuesWriter {
  private static final int INITIAL_SLOTS = 1 << 6;

  /** The value in the high half, its id + 1 in the low half; 0 in the low half when free. */
  private long[] slots = new long[INITIAL_SLOTS];
  /** The value of each id. */
  private int[] values = new int[INITIAL_SLOTS / 2];
  private int entries;
  private int lastValue;
  /** The id of {@link #lastValue}; -1 when there is none. */
  private int lastId = -1;

  IntDictionaryWriter(int maxDictionaryByteSize, Encoding dataPage, Encoding dictionaryPage, ByteBufferAllocator allocator) {
    super(maxDictionaryByteSize, dataPage, dictionaryPage, allocator);
  }

  @Override
  public void writeInteger(int v) {
    int id = lastId;
    if (id < 0 || v != lastValue) {
      id = idOf(v);
      lastValue = v;
      lastId = id;
    }
    encodedValues.add(id);
  }

  /** The id of a value, numbering it if new. */
  private int idOf(int v) {
    int mask = slots.length - 1;
    int pos = BinaryDictionaryWriter.spread(v) & mask;
    for (long s = slots[pos]; (int) s != 0; s = slots[pos]) {
      if ((int) (s >>> 32) == v) return (int) s - 1;
      pos = (pos + 1) & mask;
    }
    int id = entries++;
    if (id == values.length) values = java.util.Arrays.copyOf(values, id * 2);
    values[id] = v;
    slots[pos] = ((long) v << 32) | ((id + 1) & 0xffffffffL);
    dictionaryByteSize += 4;
    if (entries * 2 > slots.length) rehash();
    return id;
  }

  private void rehash() {
    long[] bigger = new long[slots.length * 2];
    int mask = bigger.length - 1;
    for (long s : slots) {
      if ((int) s == 0) continue;
      int pos = BinaryDictionaryWriter.spread((int) (s >>> 32)) & mask;
      while ((int) bigger[pos] != 0) pos = (pos + 1) & mask;
      bigger[pos] = s;
    }
    slots = bigger;
  }

  @Override
  public int getDictionarySize() {
    return entries;
  }

  @Override
  protected void clearDictionaryContent() {
    java.util.Arrays.fill(slots, 0L);
    entries = 0;
    lastId = -1;
  }

  /** The values the pages written so far use, in id order, plain-encoded. */
  @Override
  public DictionaryPage toDictPageAndClose() {
    if (lastUsedDictionarySize <= 0) return null;
    PlainValuesWriter dictionary = new PlainValuesWriter(lastUsedDictionaryByteSize, maxDictionaryByteSize, allocator);
    for (int id = 0; id < lastUsedDictionarySize; id++) dictionary.writeInteger(values[id]);
    return dictPage(dictionary);
  }

  /** Every value written so far, plain-encoded into the writer that takes over. */
  @Override
  public void fallBackDictionaryEncodedData(ValuesWriter writer) {
    lastId = -1;
    IntList.IntIterator ids = encodedValues.iterator();
    while (ids.hasNext()) writer.writeInteger(values[ids.next()]);
  }
}
