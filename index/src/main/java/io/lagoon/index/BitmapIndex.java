package io.lagoon.index;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.roaringbitmap.RoaringBitmap;

/**
 * Paimon's {@code bitmap} file index: for each distinct value of a column in one data file, the
 * row positions holding it, plus the positions of nulls. Values are keyed by their encoded bytes
 * ({@link Width}: 1, 2, 4 or 8 big-endian bytes for booleans, tinyint, smallint, int, date, time,
 * bigint and timestamps; a 4-byte length then the bytes for strings), as Paimon encodes them.
 *
 * <p>Written in version 1, the layout Paimon 0.9 reads: version byte, row count, number of
 * distinct non-null values, a has-null byte and the null bitmap's offset, then each value with
 * its bitmap's offset in the body; the body holds Roaring bitmaps in their portable serialization.
 * A value (or null) found in one row only stores {@code -1 - row} as its offset and no bitmap.
 * Read in version 1 and in version 2, Paimon 1.x's default: the same head fields, then values
 * sorted into index blocks (a directory of each block's first value and offset, and the body's
 * offset after the blocks), each entry with its bitmap's length.
 */
public final class BitmapIndex {
  /** The index type name in a file index, as Paimon names it. */
  public static final String TYPE = "bitmap";

  /** How a column's values are encoded as keys: a fixed byte count, or length-prefixed bytes. */
  public enum Width {
    ONE(1), TWO(2), FOUR(4), EIGHT(8), VARIABLE(-1);

    final int bytes;

    Width(int bytes) {
      this.bytes = bytes;
    }
  }

  private final int rowCount;
  /** Each value's bitmap offset in the body (or {@code -1 - row} for a single row). */
  private final Map<Key, Integer> offsets;
  /** The serialized index and where its bitmaps start: a query needs the bitmaps of few values. */
  private final ByteBuffer in;
  private final int bodyStart;
  /** The null bitmap's offset; null when no row is null. */
  private final Integer nullOffset;
  /** The bitmaps read so far. */
  private final Map<Key, RoaringBitmap> values = new HashMap<>();
  private RoaringBitmap nulls;

  private BitmapIndex(int rowCount, Map<Key, Integer> offsets, ByteBuffer in, int bodyStart, Integer nullOffset) {
    this.rowCount = rowCount;
    this.offsets = offsets;
    this.in = in;
    this.bodyStart = bodyStart;
    this.nullOffset = nullOffset;
  }

  /** A value's key: its encoded bytes (for {@link Width#VARIABLE}, without the length prefix). */
  public static final class Key {
    private final byte[] bytes;

    private Key(byte[] bytes) {
      this.bytes = bytes;
    }

    public static Key of(byte[] bytes) {
      return new Key(bytes);
    }

    public static Key ofBoolean(boolean v) {
      return new Key(new byte[] {(byte) (v ? 1 : 0)});
    }

    public static Key ofByte(byte v) {
      return new Key(new byte[] {v});
    }

    public static Key ofShort(short v) {
      return new Key(ByteBuffer.allocate(2).putShort(v).array());
    }

    public static Key ofInt(int v) {
      return new Key(ByteBuffer.allocate(4).putInt(v).array());
    }

    public static Key ofLong(long v) {
      return new Key(ByteBuffer.allocate(8).putLong(v).array());
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key && Arrays.equals(bytes, ((Key) o).bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }
  }

  /** Collects one file's values row by row ({@code null} for a null), then serializes them. */
  public static final class Builder {
    private final Width width;
    private final Map<Key, RoaringBitmap> values = new LinkedHashMap<>();
    private final RoaringBitmap nulls = new RoaringBitmap();
    private int rows;

    public Builder(Width width) {
      this.width = width;
    }

    public void add(Key value) {
      if (value == null) {
        nulls.add(rows);
      } else {
        if (width != Width.VARIABLE && value.bytes.length != width.bytes) {
          throw new IllegalArgumentException("A " + width + " bitmap key needs " + width.bytes + " bytes, got "
              + value.bytes.length);
        }
        values.computeIfAbsent(value, k -> new RoaringBitmap()).add(rows);
      }
      rows++;
    }

    public int rows() {
      return rows;
    }

    /** The index in version 1. */
    public byte[] serialize() {
      try {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream bodyOut = new DataOutputStream(body);
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(head);
        out.writeByte(1);
        out.writeInt(rows);
        out.writeInt(values.size());
        boolean hasNull = !nulls.isEmpty();
        out.writeByte(hasNull ? 1 : 0);
        if (hasNull) out.writeInt(place(nulls, body, bodyOut));
        for (Map.Entry<Key, RoaringBitmap> e : values.entrySet()) {
          if (width == Width.VARIABLE) out.writeInt(e.getKey().bytes.length);
          out.write(e.getKey().bytes);
          out.writeInt(place(e.getValue(), body, bodyOut));
        }
        out.flush();
        bodyOut.flush();
        head.write(body.toByteArray());
        return head.toByteArray();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** A bitmap's offset in the body, or {@code -1 - row} for a single row (nothing written). */
    private static int place(RoaringBitmap rows, ByteArrayOutputStream body, DataOutputStream bodyOut)
        throws IOException {
      if (rows.getCardinality() == 1) return -1 - rows.first();
      int offset = body.size();
      rows.runOptimize();
      rows.serialize(bodyOut);
      bodyOut.flush();
      return offset;
    }
  }

  /**
   * The index serialized at {@code data[offset, offset + length)}, version 1 or 2. Only the head
   * (the values and their bitmaps' offsets) is read here; each bitmap when first asked for.
   */
  public static BitmapIndex read(byte[] data, int offset, int length, Width width) {
    ByteBuffer in = ByteBuffer.wrap(data, offset, length).slice();
    int version = in.get();
    if (version != 1 && version != 2) {
      throw new IllegalArgumentException("Bitmap index version " + version + " (Lagoon reads versions 1 and 2)");
    }
    int rowCount = in.getInt();
    int distinct = in.getInt();
    if (rowCount < 0 || distinct < 0) throw new IllegalArgumentException("Corrupt bitmap index head");
    boolean hasNull = in.get() != 0;
    int nullOffset = hasNull ? in.getInt() : 0;
    if (hasNull && version == 2) in.getInt(); // the null bitmap's length
    Map<Key, Integer> offsets = new HashMap<>();
    int bodyStart;
    if (version == 1) {
      for (int i = 0; i < distinct; i++) offsets.put(key(in, width), in.getInt());
      bodyStart = in.position();
    } else {
      int blocks = in.getInt();
      for (int i = 0; i < blocks; i++) {
        key(in, width); // the block's first value, for a reader that seeks
        in.getInt(); // the block's offset
      }
      int bitmapsAfterBlocks = in.getInt();
      int blocksStart = in.position();
      for (int b = 0; b < blocks; b++) {
        int entries = in.getInt();
        for (int i = 0; i < entries; i++) {
          Key k = key(in, width);
          offsets.put(k, in.getInt());
          in.getInt(); // the bitmap's length
        }
      }
      bodyStart = blocksStart + bitmapsAfterBlocks;
    }
    if (offsets.size() != distinct) throw new IllegalArgumentException("Corrupt bitmap index: " + offsets.size()
        + " values, head says " + distinct);
    return new BitmapIndex(rowCount, offsets, in, bodyStart, hasNull ? nullOffset : null);
  }

  private static Key key(ByteBuffer in, Width width) {
    int n = width == Width.VARIABLE ? in.getInt() : width.bytes;
    if (n < 0 || n > in.remaining()) throw new IllegalArgumentException("Corrupt bitmap index value of " + n + " bytes");
    byte[] b = new byte[n];
    in.get(b);
    return new Key(b);
  }

  private static RoaringBitmap bitmap(ByteBuffer in, int bodyStart, int offset) {
    if (offset < 0) return RoaringBitmap.bitmapOf(-1 - offset);
    RoaringBitmap rows = new RoaringBitmap();
    try {
      ByteBuffer at = in.duplicate();
      at.position(bodyStart + offset);
      rows.deserialize(at.slice());
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("Corrupt bitmap in a bitmap index at offset " + offset, e);
    }
    return rows;
  }

  public int rowCount() {
    return rowCount;
  }

  /**
   * The rows holding the value (empty when no row does); not to be modified.
   *
   * @throws IllegalArgumentException when its bitmap is corrupt
   */
  public synchronized RoaringBitmap rowsOf(Key value) {
    Integer offset = offsets.get(value);
    if (offset == null) return new RoaringBitmap();
    return values.computeIfAbsent(value, k -> bitmap(in, bodyStart, offset));
  }

  /**
   * The rows whose value is null; not to be modified.
   *
   * @throws IllegalArgumentException when its bitmap is corrupt
   */
  public synchronized RoaringBitmap nullRows() {
    if (nulls == null) nulls = nullOffset == null ? new RoaringBitmap() : bitmap(in, bodyStart, nullOffset);
    return nulls;
  }

  public boolean contains(Key value) {
    return offsets.containsKey(value);
  }

  /** The distinct non-null values the file holds. */
  public java.util.Set<Key> keys() {
    return java.util.Collections.unmodifiableSet(offsets.keySet());
  }

  /** How many distinct non-null values the file holds. */
  public int distinctValues() {
    return offsets.size();
  }
}
