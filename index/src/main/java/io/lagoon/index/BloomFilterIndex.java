package io.lagoon.index;

/**
 * A Bloom filter in the layout of Paimon's {@code bloom-filter} file index: the number of hash
 * functions k (4 bytes, big-endian) then the bit set (bit i in byte i/8 at bit i%8, lowest first),
 * whose size a reader takes from the byte length. Values enter as 64-bit hashes
 * ({@link ValueHashes}); probe i of 1..k is bit {@code (h1 + i*h2) % bits} with {@code h1} the low
 * and {@code h2} the high half of the hash (negative sums bit-flipped), as Paimon's readers probe.
 */
public final class BloomFilterIndex {
  /** The index type name in a file index, as Paimon names it. */
  public static final String TYPE = "bloom-filter";
  /** Paimon's default false-positive probability ({@code file-index.bloom-filter.<col>.fpp}). */
  public static final double DEFAULT_FPP = 0.1;
  /**
   * The false-positive probability of a filter sized for its file's distinct values when the
   * table sets none: Paimon's default sizes every filter for a million values, so its filters on
   * files of fewer values are far more selective than 0.1 says; 0.01 keeps Lagoon's as selective
   * in practice at a fraction of the size.
   */
  public static final double SIZED_DEFAULT_FPP = 0.01;

  private final int hashes;
  private final byte[] bits;
  private final int offset;
  private final int numBits;

  private BloomFilterIndex(int hashes, byte[] bits, int offset, int numBits) {
    this.hashes = hashes;
    this.bits = bits;
    this.offset = offset;
    this.numBits = numBits;
  }

  /**
   * An empty filter for {@code items} distinct values at false-positive probability {@code fpp},
   * sized as Paimon sizes it (so the same items and fpp give Paimon's bytes).
   */
  public static BloomFilterIndex sized(long items, double fpp) {
    if (items <= 0) throw new IllegalArgumentException("Bloom filter items must be positive, got " + items);
    if (!(fpp > 0 && fpp < 1)) throw new IllegalArgumentException("Bloom filter fpp must be in (0, 1), got " + fpp);
    int nb = (int) (-items * Math.log(fpp) / (Math.log(2) * Math.log(2)));
    int numBits = nb + (Byte.SIZE - nb % Byte.SIZE);
    int k = Math.max(1, (int) Math.round((double) numBits / items * Math.log(2)));
    // Paimon's readers parse k with sign-extended bytes: keep it in one byte's positive range.
    k = Math.min(k, 127);
    return new BloomFilterIndex(k, new byte[numBits / Byte.SIZE], 0, numBits);
  }

  /** A filter read from its serialized bytes (not copied). */
  public static BloomFilterIndex read(byte[] data, int offset, int length) {
    if (length < 5) throw new IllegalArgumentException("A Bloom filter index needs at least 5 bytes, got " + length);
    int k = (data[offset] & 0xFF) << 24 | (data[offset + 1] & 0xFF) << 16 | (data[offset + 2] & 0xFF) << 8
        | (data[offset + 3] & 0xFF);
    if (k <= 0 || k > 1024) throw new IllegalArgumentException("Bloom filter index with " + k + " hash functions");
    return new BloomFilterIndex(k, data, offset + 4, (length - 4) * Byte.SIZE);
  }

  public void add(long hash) {
    int h1 = (int) hash;
    int h2 = (int) (hash >>> 32);
    for (int i = 1; i <= hashes; i++) {
      int pos = position(h1 + i * h2);
      bits[offset + (pos >>> 3)] |= (byte) (1 << (pos & 7));
    }
  }

  /** False only when no value with this hash was added. */
  public boolean mightContain(long hash) {
    int h1 = (int) hash;
    int h2 = (int) (hash >>> 32);
    for (int i = 1; i <= hashes; i++) {
      int pos = position(h1 + i * h2);
      if ((bits[offset + (pos >>> 3)] & (1 << (pos & 7))) == 0) return false;
    }
    return true;
  }

  private int position(int combined) {
    return (combined < 0 ? ~combined : combined) % numBits;
  }

  public int hashFunctions() {
    return hashes;
  }

  /** k, then the bit set. */
  public byte[] serialize() {
    int n = numBits / Byte.SIZE;
    byte[] out = new byte[4 + n];
    out[0] = (byte) (hashes >>> 24);
    out[1] = (byte) (hashes >>> 16);
    out[2] = (byte) (hashes >>> 8);
    out[3] = (byte) hashes;
    System.arraycopy(bits, offset, out, 4, n);
    return out;
  }
}
