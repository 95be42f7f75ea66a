package io.lagoon.zorder;

/**
 * The position of a point on the Hilbert curve through an n-dimensional grid of {@code bits} bits
 * per dimension: consecutive positions are neighbouring grid points, so sorting by it keeps rows
 * that are close in every column closer together than z-order does (no long jumps at the quadrant
 * seams). Coordinates are unsigned: each column's order-preserving key read as an unsigned
 * big-endian number. Computed with Skilling's transform of the coordinates into the curve's
 * "transposed" index, then the transposed bits interleaved.
 */
public final class HilbertKey {
  private final int dims;
  private final int bits;
  private final Interleave interleave;
  private final byte[] transposedBytes;

  /** @param bits bits per dimension, 1 to 64 */
  public HilbertKey(int dims, int bits) {
    if (dims < 1 || bits < 1 || bits > 64) throw new IllegalArgumentException("dims " + dims + ", bits " + bits);
    this.dims = dims;
    this.bits = bits;
    int bytesPerDim = (bits + 7) / 8;
    int[] lengths = new int[dims];
    java.util.Arrays.fill(lengths, bytesPerDim);
    this.interleave = new Interleave(lengths);
    this.transposedBytes = new byte[dims * bytesPerDim];
  }

  /** Bytes of a key: {@code dims * ceil(bits / 8)}. */
  public int length() {
    return interleave.length();
  }

  /**
   * Writes the curve position of {@code coords} (each below 2^bits, as unsigned; the array is
   * overwritten) into {@code out} at {@code off}. Not thread-safe: one instance per task.
   */
  public void apply(long[] coords, byte[] out, int off) {
    transpose(coords, bits);
    int bytesPerDim = (bits + 7) / 8;
    // Each transposed value, left-aligned in its bytes, so the interleave takes its top bit first.
    for (int d = 0; d < dims; d++) {
      long v = bits == 64 ? coords[d] : coords[d] << (64 - bits);
      for (int i = 0; i < bytesPerDim; i++) transposedBytes[d * bytesPerDim + i] = (byte) (v >>> (56 - 8 * i));
    }
    // With bits not a multiple of 8 the padding bits, all zero, interleave after every real bit:
    // the key still orders by the curve position.
    interleave.apply(transposedBytes, 0, out, off);
  }

  /** Skilling's transform, in place: coordinates to the transposed Hilbert index. */
  static void transpose(long[] x, int bits) {
    int n = x.length;
    long m = 1L << (bits - 1);
    for (long q = m; q != 1 && q != 0; q >>>= 1) {
      long p = q - 1;
      for (int i = 0; i < n; i++) {
        if ((x[i] & q) != 0) {
          x[0] ^= p;
        } else {
          long t = (x[0] ^ x[i]) & p;
          x[0] ^= t;
          x[i] ^= t;
        }
      }
    }
    for (int i = 1; i < n; i++) x[i] ^= x[i - 1];
    long t = 0;
    for (long q = m; q != 1 && q != 0; q >>>= 1) {
      if ((x[n - 1] & q) != 0) t ^= q - 1;
    }
    for (int i = 0; i < n; i++) x[i] ^= t;
  }

  /** An order key's first eight bytes as an unsigned coordinate (zero-padded when shorter). */
  public static long coordinate(byte[] key, int off, int len) {
    long v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | (i < len ? key[off + i] & 0xff : 0);
    return v;
  }
}
