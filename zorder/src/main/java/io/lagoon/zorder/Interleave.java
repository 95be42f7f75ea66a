package io.lagoon.zorder;

/**
 * The z-order key of several columns: the bits of their order-preserving keys interleaved, most
 * significant first, one bit of each column in turn; a column whose key is shorter drops out once
 * its bits are used up. If every column's key of {@code a} is at most that of {@code b}, the
 * z-order key of {@code a} is at most that of {@code b}, and rows close in all columns get close
 * keys. One instance serves every row of a sort (nothing is allocated per row).
 */
public final class Interleave {
  private final int[] lengths;
  private final int[] starts;
  private final int total;
  private final int maxBits;

  /** @param lengths each column's key length in bytes, in the order the keys lie in the input */
  public Interleave(int[] lengths) {
    this.lengths = lengths.clone();
    this.starts = new int[lengths.length];
    int t = 0;
    int m = 0;
    for (int c = 0; c < lengths.length; c++) {
      if (lengths[c] <= 0) throw new IllegalArgumentException("key length " + lengths[c] + " of column " + c);
      starts[c] = t;
      t += lengths[c];
      m = Math.max(m, lengths[c] * 8);
    }
    this.total = t;
    this.maxBits = m;
  }

  /** Bytes of an interleaved key: the sum of the columns' key lengths. */
  public int length() {
    return total;
  }

  /** Interleaves the column keys lying back to back in {@code in} from {@code inOff} into {@code out} at {@code outOff}. */
  public void apply(byte[] in, int inOff, byte[] out, int outOff) {
    java.util.Arrays.fill(out, outOff, outOff + total, (byte) 0);
    int outBit = 0;
    for (int bit = 0; bit < maxBits; bit++) {
      int byteIndex = bit >>> 3;
      int shift = 7 - (bit & 7);
      for (int c = 0; c < lengths.length; c++) {
        if (bit >= lengths[c] * 8) continue;
        if (((in[inOff + starts[c] + byteIndex] >>> shift) & 1) != 0) {
          out[outOff + (outBit >>> 3)] |= (byte) (0x80 >>> (outBit & 7));
        }
        outBit++;
      }
    }
  }
}
