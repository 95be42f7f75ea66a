package io.lagoon.index;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.roaringbitmap.RoaringBitmap;

/**
 * Paimon's {@code bsi} file index (bit-sliced index): a column's values as 64-bit integers
 * (integers, dates, decimals by their unscaled value, timestamps as the Bloom filter takes them),
 * one bitmap per binary digit, so that the rows holding a value, or any value in a range, come out
 * of a few bitmap operations. Non-negative values and the absolute values of negative ones are
 * kept in two such indexes.
 *
 * <p>Layout (big-endian): version byte 1, row count, then for the non-negative and the negative
 * values each a presence byte and, when present: version byte 1, a minimum (always 0, as Paimon
 * writes it) and the largest absolute value as longs, the rows holding a value (existence bitmap),
 * the number of slices (bits of the largest value) and bitmap i of the rows whose value has bit i
 * set. Bitmaps are Roaring's portable serialization, run-optimized as Paimon writes them. Paimon 1.x
 * reads it; Paimon 0.9 has no bsi index.
 */
public final class BitSliceIndex {
  /** The index type name in a file index, as Paimon names it. */
  public static final String TYPE = "bsi";

  private final int rowCount;
  private final Slices positive;
  private final Slices negative;

  private BitSliceIndex(int rowCount, Slices positive, Slices negative) {
    this.rowCount = rowCount;
    this.positive = positive;
    this.negative = negative;
  }

  /** One unsigned bit-sliced index: rows with a value, and one bitmap per bit. */
  private static final class Slices {
    final long max;
    final RoaringBitmap exists;
    final RoaringBitmap[] bits;

    Slices(long max, RoaringBitmap exists, RoaringBitmap[] bits) {
      this.max = max;
      this.exists = exists;
      this.bits = bits;
    }

    /** Rows whose value is at least {@code c} (c >= 0). */
    RoaringBitmap atLeast(long c) {
      if (c <= 0) return exists.clone();
      if (c > max) return new RoaringBitmap();
      RoaringBitmap[] gtEq = compare(c);
      return RoaringBitmap.or(gtEq[0], gtEq[1]);
    }

    /** Rows whose value is at most {@code c} (c >= 0). */
    RoaringBitmap atMost(long c) {
      if (c >= max) return exists.clone();
      return RoaringBitmap.andNot(exists, compare(c)[0]);
    }

    RoaringBitmap equalTo(long c) {
      if (c < 0 || c > max) return new RoaringBitmap();
      return compare(c)[1];
    }

    /** {greater than c, equal to c} over the rows with a value, c within [0, max]. */
    private RoaringBitmap[] compare(long c) {
      RoaringBitmap gt = new RoaringBitmap();
      RoaringBitmap eq = exists.clone();
      for (int i = bits.length - 1; i >= 0; i--) {
        if ((c >>> i & 1) == 1) {
          eq.and(bits[i]);
        } else {
          gt.or(RoaringBitmap.and(eq, bits[i]));
          eq.andNot(bits[i]);
        }
      }
      return new RoaringBitmap[] {gt, eq};
    }
  }

  /** Collects one file's values row by row ({@code null} for a null), then serializes them. */
  public static final class Builder {
    private final RoaringBitmap posExists = new RoaringBitmap();
    private final RoaringBitmap negExists = new RoaringBitmap();
    private final RoaringBitmap[] posBits = new RoaringBitmap[64];
    private final RoaringBitmap[] negBits = new RoaringBitmap[64];
    private long posMax;
    private long negMax;
    private int rows;
    /** A value the layout cannot hold ({@code Long.MIN_VALUE}, whose absolute value overflows). */
    private boolean unrepresentable;

    public void add(Long value) {
      if (value != null && value == Long.MIN_VALUE) unrepresentable = true;
      if (value != null && !unrepresentable) {
        long v = value;
        boolean neg = v < 0;
        long abs = Math.abs(v);
        (neg ? negExists : posExists).add(rows);
        RoaringBitmap[] bits = neg ? negBits : posBits;
        for (int i = 0; i < 64 && abs >>> i != 0; i++) {
          if ((abs >>> i & 1) == 1) {
            if (bits[i] == null) bits[i] = new RoaringBitmap();
            bits[i].add(rows);
          }
        }
        if (neg) negMax = Math.max(negMax, abs);
        else posMax = Math.max(posMax, abs);
      }
      rows++;
    }

    /** The index, or null when a value cannot be held (the file then has no bsi index). */
    public byte[] serialize() {
      if (unrepresentable) return null;
      try {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(1);
        out.writeInt(rows);
        write(out, posExists, posBits, posMax);
        write(out, negExists, negBits, negMax);
        out.flush();
        return bytes.toByteArray();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static void write(DataOutputStream out, RoaringBitmap exists, RoaringBitmap[] bits, long max)
        throws IOException {
      if (exists.isEmpty()) {
        out.writeByte(0);
        return;
      }
      out.writeByte(1);
      out.writeByte(1);
      out.writeLong(0);
      out.writeLong(max);
      exists.runOptimize();
      exists.serialize(out);
      int slices = 64 - Long.numberOfLeadingZeros(max);
      out.writeInt(slices);
      for (int i = 0; i < slices; i++) {
        RoaringBitmap b = bits[i] == null ? new RoaringBitmap() : bits[i];
        b.runOptimize();
        b.serialize(out);
      }
    }
  }

  /** The index serialized at {@code data[offset, offset + length)}. */
  public static BitSliceIndex read(byte[] data, int offset, int length) {
    ByteBuffer in = ByteBuffer.wrap(data, offset, length).slice();
    try {
      int version = in.get();
      if (version != 1) throw new IllegalArgumentException("Bsi index version " + version + " (Lagoon reads version 1)");
      int rows = in.getInt();
      Slices positive = in.get() != 0 ? slices(in) : null;
      Slices negative = in.get() != 0 ? slices(in) : null;
      return new BitSliceIndex(rows, positive, negative);
    } catch (java.nio.BufferUnderflowException | IOException e) {
      throw new IllegalArgumentException("Corrupt bsi index", e);
    }
  }

  private static Slices slices(ByteBuffer in) throws IOException {
    int version = in.get();
    if (version != 1) throw new IllegalArgumentException("Bsi slices version " + version);
    in.getLong(); // the minimum, 0 as written
    long max = in.getLong();
    RoaringBitmap exists = bitmap(in);
    int n = in.getInt();
    if (n < 0 || n > 64) throw new IllegalArgumentException("Corrupt bsi index: " + n + " slices");
    RoaringBitmap[] bits = new RoaringBitmap[n];
    for (int i = 0; i < n; i++) bits[i] = bitmap(in);
    return new Slices(max, exists, bits);
  }

  private static RoaringBitmap bitmap(ByteBuffer in) throws IOException {
    RoaringBitmap b = new RoaringBitmap();
    ByteBuffer at = in.slice();
    b.deserialize(at);
    in.position(in.position() + b.serializedSizeInBytes());
    return b;
  }

  public int rowCount() {
    return rowCount;
  }

  /** Rows whose value is not null. */
  public RoaringBitmap nonNullRows() {
    return RoaringBitmap.or(positive == null ? new RoaringBitmap() : positive.exists,
        negative == null ? new RoaringBitmap() : negative.exists);
  }

  /** Rows whose value is at least {@code c}. */
  public RoaringBitmap atLeast(long c) {
    if (c == Long.MIN_VALUE) return nonNullRows(); // no stored value is below it
    if (c >= 0) return positive == null ? new RoaringBitmap() : positive.atLeast(c);
    RoaringBitmap out = positive == null ? new RoaringBitmap() : positive.exists.clone();
    if (negative != null) out.or(negative.atMost(-c));
    return out;
  }

  /** Rows whose value is at most {@code c}. */
  public RoaringBitmap atMost(long c) {
    if (c == Long.MIN_VALUE) return new RoaringBitmap(); // never stored
    if (c < 0) return negative == null ? new RoaringBitmap() : negative.atLeast(-c);
    RoaringBitmap out = negative == null ? new RoaringBitmap() : negative.exists.clone();
    if (positive != null) out.or(positive.atMost(c));
    return out;
  }

  /** Rows whose value is {@code c}. */
  public RoaringBitmap equalTo(long c) {
    if (c == Long.MIN_VALUE) return new RoaringBitmap();
    if (c >= 0) return positive == null ? new RoaringBitmap() : positive.equalTo(c);
    return negative == null ? new RoaringBitmap() : negative.equalTo(-c);
  }
}
