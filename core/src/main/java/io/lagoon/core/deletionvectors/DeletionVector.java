package io.lagoon.core.deletionvectors;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.TreeMap;
import org.roaringbitmap.PeekableIntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * The deleted row positions of one data file, in Paimon's two serialized forms:
 * <ul>
 *   <li>32-bit (the default): big-endian int magic {@value #MAGIC_32}, then a portable
 *       {@code RoaringBitmap}; positions below 2^31;</li>
 *   <li>64-bit ({@code deletion-vectors.bitmap64}, Paimon 1.2+, Iceberg's blob): little-endian int
 *       magic {@value #MAGIC_64}, a little-endian long count of bitmaps, then per bitmap its
 *       little-endian int key (the high 32 bits of its positions) and a portable
 *       {@code RoaringBitmap} of the low 32 bits.</li>
 * </ul>
 * Not thread-safe.
 */
public final class DeletionVector {
  public static final int MAGIC_32 = 1581511376;
  public static final int MAGIC_64 = 1681511377;

  private final boolean bitmap64;
  /** By the high 32 bits of a position, the low 32 bits (one entry, key 0, in the 32-bit form). */
  private final TreeMap<Integer, RoaringBitmap> bitmaps = new TreeMap<>();

  private DeletionVector(boolean bitmap64) {
    this.bitmap64 = bitmap64;
  }

  /** An empty vector that serializes in the 64-bit form when {@code bitmap64}, else the 32-bit one. */
  public static DeletionVector empty(boolean bitmap64) {
    return new DeletionVector(bitmap64);
  }

  public boolean bitmap64() {
    return bitmap64;
  }

  /** Marks a row position deleted. */
  public void delete(long position) {
    check(position);
    bitmaps.computeIfAbsent((int) (position >>> 32), k -> new RoaringBitmap()).add((int) position);
  }

  public boolean isDeleted(long position) {
    if (position < 0) return false;
    RoaringBitmap b = bitmaps.get((int) (position >>> 32));
    return b != null && b.contains((int) position);
  }

  /**
   * The deleted positions among {@code count} consecutive ones from {@code from}, as offsets from
   * {@code from} in ascending order, written to {@code out} (room for {@code count} needed).
   * Walks the bitmap rather than testing every position, so a batch with few deletions costs
   * little.
   *
   * @return how many offsets were written
   */
  public int deletedIn(long from, int count, int[] out) {
    if (count <= 0 || bitmaps.isEmpty() || from < 0) return 0;
    long to = from + count;
    int n = 0;
    for (Map.Entry<Integer, RoaringBitmap> e
        : bitmaps.subMap((int) (from >>> 32), true, (int) ((to - 1) >>> 32), true).entrySet()) {
      long base = ((long) e.getKey()) << 32;
      PeekableIntIterator it = e.getValue().getIntIterator();
      it.advanceIfNeeded((int) Math.max(from, base));
      while (it.hasNext()) {
        long p = base + Integer.toUnsignedLong(it.peekNext());
        if (p >= to) break;
        it.next();
        out[n++] = (int) (p - from);
      }
    }
    return n;
  }

  /** Whether every position in {@code [from, to)} is deleted (true for an empty range). */
  public boolean deletesAll(long from, long to) {
    if (to <= from) return true;
    if (from < 0) return false;
    for (long key = from >>> 32; key <= (to - 1) >>> 32; key++) {
      RoaringBitmap b = bitmaps.get((int) key);
      if (b == null) return false;
      long base = key << 32;
      long lo = Math.max(from, base) - base;
      long hi = Math.min(to, base + (1L << 32)) - base;
      if (b.rangeCardinality(lo, hi) != hi - lo) return false;
    }
    return true;
  }

  /** Deleted positions. */
  public long cardinality() {
    long n = 0;
    for (RoaringBitmap b : bitmaps.values()) n += b.getLongCardinality();
    return n;
  }

  public boolean isEmpty() {
    return cardinality() == 0;
  }

  /**
   * The rows of a file of {@code rowCount} rows that a row selection does not keep (positions
   * below 2^31, as a file index holds them), plus those {@code deleted} (null: none) deletes.
   */
  public static DeletionVector outside(RoaringBitmap kept, long rowCount, DeletionVector deleted) {
    DeletionVector out = new DeletionVector(deleted != null && deleted.bitmap64);
    out.bitmaps.put(0, RoaringBitmap.flip(kept, 0L, rowCount));
    if (deleted != null) out.merge(deleted);
    return out;
  }

  /** Adds every position the other vector deletes. */
  public void merge(DeletionVector other) {
    for (Map.Entry<Integer, RoaringBitmap> e : other.bitmaps.entrySet()) {
      if (!bitmap64 && e.getKey() != 0) {
        throw new IllegalArgumentException("A 32-bit deletion vector holds positions below 2^31 only");
      }
      bitmaps.computeIfAbsent(e.getKey(), k -> new RoaringBitmap()).or(e.getValue());
    }
  }

  private void check(long position) {
    if (position < 0) throw new IllegalArgumentException("Row position " + position + " is negative");
    if (!bitmap64 && position > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Row position " + position + " does not fit a 32-bit deletion vector "
          + "(set 'deletion-vectors.bitmap64'='true' for files of more than 2^31 rows)");
    }
  }

  /** The serialized vector (magic included), as an index file stores it between size and checksum. */
  public byte[] serialize() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      if (!bitmap64) {
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(MAGIC_32);
        RoaringBitmap b = bitmaps.getOrDefault(0, new RoaringBitmap());
        b.runOptimize();
        b.serialize(out);
        out.flush();
        return bytes.toByteArray();
      }
      ByteBuffer head = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
      head.putInt(MAGIC_64).putLong(bitmaps.size());
      bytes.write(head.array());
      for (Map.Entry<Integer, RoaringBitmap> e : bitmaps.entrySet()) {
        RoaringBitmap b = e.getValue();
        b.runOptimize();
        ByteBuffer body = ByteBuffer.allocate(4 + b.serializedSizeInBytes()).order(ByteOrder.LITTLE_ENDIAN);
        body.putInt(e.getKey());
        b.serialize(body);
        bytes.write(body.array());
      }
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads a serialized vector; the form comes from its magic.
   *
   * @throws IllegalArgumentException naming what is wrong when the bytes are no deletion vector
   */
  public static DeletionVector deserialize(byte[] bytes) {
    if (bytes.length < 4) throw new IllegalArgumentException("A deletion vector of " + bytes.length + " bytes is truncated");
    ByteBuffer big = ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN);
    ByteBuffer little = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    try {
      if (big.getInt(0) == MAGIC_32) {
        DeletionVector dv = new DeletionVector(false);
        RoaringBitmap b = new RoaringBitmap();
        b.deserialize(ByteBuffer.wrap(bytes, 4, bytes.length - 4).slice().order(ByteOrder.LITTLE_ENDIAN));
        if (!b.isEmpty()) {
          if (b.getReverseIntIterator().next() < 0) {
            throw new IllegalArgumentException("A 32-bit deletion vector holds a position at or above 2^31");
          }
          dv.bitmaps.put(0, b);
        }
        return dv;
      }
      if (little.getInt(0) == MAGIC_64) {
        DeletionVector dv = new DeletionVector(true);
        little.position(4);
        long count = little.getLong();
        if (count < 0 || count > bytes.length) {
          throw new IllegalArgumentException("A 64-bit deletion vector claims " + count + " bitmaps");
        }
        for (long i = 0; i < count; i++) {
          int key = little.getInt();
          if (key < 0) throw new IllegalArgumentException("A 64-bit deletion vector has a negative bitmap key " + key);
          RoaringBitmap b = new RoaringBitmap();
          b.deserialize(little.slice().order(ByteOrder.LITTLE_ENDIAN));
          little.position(little.position() + b.serializedSizeInBytes());
          if (!b.isEmpty()) dv.bitmaps.put(key, b);
        }
        return dv;
      }
    } catch (IOException | RuntimeException e) {
      if (e instanceof IllegalArgumentException) throw (IllegalArgumentException) e;
      throw new IllegalArgumentException("A deletion vector's bitmap cannot be read: " + e, e);
    }
    throw new IllegalArgumentException("Bytes are no deletion vector: magic " + big.getInt(0) + " is neither "
        + MAGIC_32 + " (32-bit) nor " + MAGIC_64 + " (64-bit)");
  }
}
