package io.lagoon.core.io;

import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.IntList;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.io.api.Binary;

/**
 * Parquet's dictionary encoder for strings and binary, with a faster lookup of each value's id.
 * Parquet's own looks every value up in a hash map of {@link Binary} keys, each a separate object
 * pointing to its own array: two dependent cache misses per value once the dictionary outgrows
 * the cache, which is most of a string column's write time. Here the slots hold each entry's hash
 * beside its id, and the entries' bytes sit one after the other in one array, so a lookup reads
 * one slot and compares against one place. Ids are given in the same order (first seen, first
 * numbered), and the dictionary page and a fall-back to plain encoding write the entries as
 * Parquet's writer does, from the arena instead of Parquet's map (which stays empty), so the
 * bytes are exactly Parquet's.
 */
final class BinaryDictionaryWriter extends DictionaryValuesWriter.PlainBinaryDictionaryValuesWriter {
  private static final int INITIAL_SLOTS = 1 << 10;

  /**
   * Two longs per slot. First: the entry's hash in the high half, its id + 1 in the low half; 0
   * when free. Second: its first bytes (up to 7) and its length (capped at 255) in the top byte,
   * so a value of up to 7 bytes (codes, states, short ids) is matched in the slot alone, and a
   * longer one is compared with the arena only when its first bytes and length agree.
   */
  private long[] slots = new long[2 * INITIAL_SLOTS];
  /** The entries' bytes, entry {@code i} at {@code [starts[i], starts[i + 1])}. */
  private byte[] arena = new byte[4096];
  private int[] starts = new int[INITIAL_SLOTS / 2 + 1];
  private int entries;

  BinaryDictionaryWriter(int maxDictionaryByteSize, Encoding dataPage, Encoding dictionaryPage,
                         ByteBufferAllocator allocator) {
    super(maxDictionaryByteSize, dataPage, dictionaryPage, allocator);
  }

  @Override
  public void writeBytes(Binary v) {
    // A value that is a slice of a larger array (a string where it lies in its row) is read in place.
    java.nio.ByteBuffer buffer = v.toByteBuffer();
    byte[] bytes;
    int offset;
    int length = buffer.remaining();
    if (buffer.hasArray()) {
      bytes = buffer.array();
      offset = buffer.arrayOffset() + buffer.position();
    } else {
      bytes = v.getBytesUnsafe();
      offset = 0;
    }
    int hash = hash(bytes, offset, length);
    long prefix = prefix(bytes, offset, length);
    int mask = (slots.length >> 1) - 1;
    int pos = spread(hash) & mask;
    for (long s = slots[2 * pos]; s != 0; s = slots[2 * pos]) {
      if ((int) (s >>> 32) == hash && slots[2 * pos + 1] == prefix) {
        int id = (int) s - 1;
        if (length <= 7 || sameBytes(id, bytes, offset, length)) {
          encodedValues.add(id);
          return;
        }
      }
      pos = (pos + 1) & mask;
    }
    int id = entries;
    add(bytes, offset, length);
    slots[2 * pos] = ((long) hash << 32) | ((id + 1) & 0xffffffffL);
    slots[2 * pos + 1] = prefix;
    if (entries * 4 > slots.length) rehash();
    dictionaryByteSize += 4L + length;
    encodedValues.add(id);
  }

  @Override
  public int getDictionarySize() {
    return entries;
  }

  @Override
  protected void clearDictionaryContent() {
    java.util.Arrays.fill(slots, 0L);
    entries = 0;
  }

  /** The entries the pages written so far use, in id order, plain-encoded. */
  @Override
  public DictionaryPage toDictPageAndClose() {
    if (lastUsedDictionarySize <= 0) return null;
    PlainValuesWriter dictionary = new PlainValuesWriter(lastUsedDictionaryByteSize, maxDictionaryByteSize, allocator);
    for (int id = 0; id < lastUsedDictionarySize; id++) dictionary.writeBytes(entry(id));
    return dictPage(dictionary);
  }

  /** Every value written so far, plain-encoded into the writer that takes over. */
  @Override
  public void fallBackDictionaryEncodedData(ValuesWriter writer) {
    IntList.IntIterator ids = encodedValues.iterator();
    while (ids.hasNext()) writer.writeBytes(entry(ids.next()));
  }

  /** An entry as a value of its own: the arena is written over once the dictionary is cleared. */
  private Binary entry(int id) {
    return Binary.fromConstantByteArray(java.util.Arrays.copyOfRange(arena, starts[id], starts[id + 1]));
  }

  private boolean sameBytes(int id, byte[] bytes, int offset, int length) {
    int from = starts[id];
    return starts[id + 1] - from == length
        && java.util.Arrays.equals(arena, from, from + length, bytes, offset, offset + length);
  }

  private void add(byte[] bytes, int offset, int length) {
    int from = starts[entries];
    if (from + length > arena.length) arena = java.util.Arrays.copyOf(arena, Math.max(arena.length * 2, from + length));
    System.arraycopy(bytes, offset, arena, from, length);
    if (entries + 2 > starts.length) starts = java.util.Arrays.copyOf(starts, starts.length * 2);
    entries++;
    starts[entries] = from + length;
  }

  private void rehash() {
    long[] bigger = new long[slots.length * 2];
    int mask = (bigger.length >> 1) - 1;
    for (int i = 0; i < slots.length; i += 2) {
      long s = slots[i];
      if (s == 0) continue;
      int pos = spread((int) (s >>> 32)) & mask;
      while (bigger[2 * pos] != 0) pos = (pos + 1) & mask;
      bigger[2 * pos] = s;
      bigger[2 * pos + 1] = slots[i + 1];
    }
    slots = bigger;
  }

  /** Up to the first 7 bytes, little-endian, and the length (capped at 255) in the top byte. */
  private static long prefix(byte[] bytes, int offset, int length) {
    long p = 0;
    for (int i = 0, n = Math.min(length, 7); i < n; i++) p |= (bytes[offset + i] & 0xffL) << (8 * i);
    return p | ((long) Math.min(length, 255) << 56);
  }

  private static int hash(byte[] bytes, int offset, int length) {
    int h = 1;
    for (int i = offset, end = offset + length; i < end; i++) h = 31 * h + bytes[i];
    return h;
  }

  /** Hashes of similar strings differ in their low bits only; slots are chosen by all of them. */
  private static int spread(int h) {
    int x = h * 0x9E3779B9;
    return x ^ (x >>> 16);
  }
}
