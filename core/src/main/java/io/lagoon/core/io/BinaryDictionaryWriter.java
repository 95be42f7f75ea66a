package io.lagoon.core.io;

import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.column.Dictionary;
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
 * the cache, which is most of a string column's write time. Here the slots hold each string's hash
 * beside its number, and the strings' bytes sit one after the other in one array, so a lookup reads
 * one slot and compares against one place. Ids are given in the same order (first seen, first
 * numbered), and the dictionary page and a fall-back to plain encoding write the entries as
 * Parquet's writer does, from the arena instead of Parquet's map (which stays empty), so the
 * bytes are exactly Parquet's.
 *
 * <p>A rewrite can also name a value by the input dictionary entry it was read from
 * ({@link #entryOf}). Each input dictionary is then mapped once, entry by entry, to the strings
 * this writer knows ("keys"), so a value costs two array reads instead of reading its string and
 * bytes and hashing them; those scattered reads were the largest cost of primary-key compaction.
 * Keys are only numbered as dictionary ids when a value first uses one, so the ids, the pages and
 * the fall-back decisions stay those of the values written, never of entries merely mapped.
 */
final class BinaryDictionaryWriter extends DictionaryValuesWriter.PlainBinaryDictionaryValuesWriter {
  private static final int INITIAL_SLOTS = 1 << 10;

  /**
   * Two longs per slot. First: the key's hash in the high half, the key + 1 in the low half; 0
   * when free. Second: its first bytes (up to 7) and its length (capped at 255) in the top byte,
   * so a value of up to 7 bytes (codes, states, short ids) is matched in the slot alone, and a
   * longer one is compared with the arena only when its first bytes and length agree.
   */
  private long[] slots = new long[2 * INITIAL_SLOTS];
  /** The keys' bytes, one after the other. */
  private byte[] arena = new byte[4096];
  private int arenaEnd;
  /**
   * Three ints per key, so a value named by its entry reads one place: where its bytes start in
   * the arena, their length, and its dictionary id + 1 (0 while no value has used it).
   */
  private int[] keyInfo = new int[3 * (INITIAL_SLOTS / 2)];
  private int keys;
  /** The key of each dictionary id. */
  private int[] keyOfId = new int[INITIAL_SLOTS / 2];
  private int entries;
  /** The keys of each input dictionary's entries, mapped since the dictionary was last cleared. */
  private final Map<Dictionary, int[]> mapped = new IdentityHashMap<>();
  /** Bumped whenever the keys are cleared, which outdates every input's memo of them. */
  private int generation;
  /** The value {@link #entryOf} last handed out, and its id, until {@link #writeBytes} takes it. */
  private Binary expected;
  private int expectedId;
  /** Whether values now go to the plain writer (entries are then not handed out). */
  private boolean fellBack;
  private final BinaryBytes located = new BinaryBytes();

  BinaryDictionaryWriter(int maxDictionaryByteSize, Encoding dataPage, Encoding dictionaryPage,
                         ByteBufferAllocator allocator) {
    super(maxDictionaryByteSize, dataPage, dictionaryPage, allocator);
  }

  @Override
  public void writeBytes(Binary v) {
    if (v == expected) {
      expected = null;
      encodedValues.add(expectedId);
      return;
    }
    encodedValues.add(use(key(v)));
  }

  /**
   * The entry a value was read from (an entry of its column chunk's dictionary), as the value to
   * write next: {@link #writeBytes} numbers it without a lookup. Null once this writer fell back to
   * plain encoding, or for an input dictionary too large to map (write the value's own bytes then).
   */
  Binary entryOf(DictionaryEntry entry) {
    if (fellBack) return null;
    // The input's keys, remembered beside the input so that a merge switching inputs every value
    // does not look them up each time.
    DictionaryEntry.Memo memo = entry.memo;
    int[] map = memo.owner == this && memo.generation == generation ? memo.keys : keysOf(entry.dictionary, memo);
    if (map == null) return null;
    int at = 3 * map[entry.id];
    int id = keyInfo[at + 2] - 1;
    if (id < 0) id = use(at / 3);
    expectedId = id;
    // Reused: statistics copy what they keep, and the arena is written over after a clear.
    expected = Binary.fromReusedByteArray(arena, keyInfo[at], keyInfo[at + 1]);
    return expected;
  }

  private int[] keysOf(Dictionary input, DictionaryEntry.Memo memo) {
    int[] map = mapped.get(input);
    if (map == null && !mapped.containsKey(input)) {
      map = map(input);
      mapped.put(input, map);
    }
    memo.owner = this;
    memo.generation = generation;
    memo.keys = map;
    return map;
  }

  /** Each entry's key, or null if the input dictionary holds more bytes than this one may. */
  private int[] map(Dictionary input) {
    int n = input.getMaxId() + 1;
    int[] map = new int[n];
    long bytes = 0;
    for (int e = 0; e < n; e++) {
      Binary b = input.decodeToBinary(e);
      bytes += b.length();
      // One input larger than a dictionary may be, or many: the values' own bytes are written then.
      if (bytes > maxDictionaryByteSize || arenaEnd > 4L * maxDictionaryByteSize) return null;
      map[e] = key(b);
    }
    return map;
  }

  /** The key of a value's bytes, added if new. */
  private int key(Binary v) {
    // A value that is a slice of a larger array (a string where it lies in its row) is read in place.
    BinaryBytes b = located.of(v);
    return key(b.array, b.offset, b.length);
  }

  private int key(byte[] bytes, int offset, int length) {
    int hash = hash(bytes, offset, length);
    long prefix = prefix(bytes, offset, length);
    int mask = (slots.length >> 1) - 1;
    int pos = spread(hash) & mask;
    for (long s = slots[2 * pos]; s != 0; s = slots[2 * pos]) {
      if ((int) (s >>> 32) == hash && slots[2 * pos + 1] == prefix) {
        int key = (int) s - 1;
        if (length <= 7 || sameBytes(key, bytes, offset, length)) return key;
      }
      pos = (pos + 1) & mask;
    }
    int key = keys;
    add(bytes, offset, length);
    slots[2 * pos] = ((long) hash << 32) | ((key + 1) & 0xffffffffL);
    slots[2 * pos + 1] = prefix;
    if (keys * 4 > slots.length) rehash();
    return key;
  }

  /** The dictionary id of a key, numbering it when a value first uses it. */
  private int use(int key) {
    int id = keyInfo[3 * key + 2] - 1;
    if (id >= 0) return id;
    id = entries++;
    if (id == keyOfId.length) keyOfId = java.util.Arrays.copyOf(keyOfId, id * 2);
    keyOfId[id] = key;
    keyInfo[3 * key + 2] = id + 1;
    dictionaryByteSize += 4L + keyInfo[3 * key + 1];
    return id;
  }

  @Override
  public int getDictionarySize() {
    return entries;
  }

  @Override
  protected void clearDictionaryContent() {
    java.util.Arrays.fill(slots, 0L);
    keys = 0;
    arenaEnd = 0;
    entries = 0;
    mapped.clear();
    generation++;
    expected = null;
  }

  @Override
  public void resetDictionary() {
    super.resetDictionary();
    fellBack = false;
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
    fellBack = true;
    expected = null;
    IntList.IntIterator ids = encodedValues.iterator();
    while (ids.hasNext()) writer.writeBytes(entry(ids.next()));
  }

  /** An entry as a value of its own: the arena is written over once the dictionary is cleared. */
  private Binary entry(int id) {
    int at = 3 * keyOfId[id];
    return Binary.fromConstantByteArray(java.util.Arrays.copyOfRange(arena, keyInfo[at], keyInfo[at] + keyInfo[at + 1]));
  }

  private boolean sameBytes(int key, byte[] bytes, int offset, int length) {
    int from = keyInfo[3 * key];
    return keyInfo[3 * key + 1] == length
        && java.util.Arrays.equals(arena, from, from + length, bytes, offset, offset + length);
  }

  private void add(byte[] bytes, int offset, int length) {
    int from = arenaEnd;
    if (from + length > arena.length) arena = java.util.Arrays.copyOf(arena, Math.max(arena.length * 2, from + length));
    System.arraycopy(bytes, offset, arena, from, length);
    if (3 * keys + 3 > keyInfo.length) keyInfo = java.util.Arrays.copyOf(keyInfo, keyInfo.length * 2);
    keyInfo[3 * keys] = from;
    keyInfo[3 * keys + 1] = length;
    keyInfo[3 * keys + 2] = 0;
    keys++;
    arenaEnd = from + length;
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

  /**
   * Hashes of similar strings (and consecutive integers) differ in their low bits only; slots are
   * chosen by all of them.
   */
  static int spread(int h) {
    int x = h * 0x9E3779B9;
    return x ^ (x >>> 16);
  }
}
