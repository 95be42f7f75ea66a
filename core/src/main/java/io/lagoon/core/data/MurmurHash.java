package io.lagoon.core.data;

/**
 * The Murmur3 x86_32 variant Paimon hashes BinaryRows with: seed 42, input read as little-endian
 * int32 words (the length must be a multiple of 4; BinaryRows always are), finished with the byte
 * length and the usual fmix32.
 */
public final class MurmurHash {
  public static final int DEFAULT_SEED = 42;
  private static final int C1 = 0xcc9e2d51;
  private static final int C2 = 0x1b873593;

  private MurmurHash() {}

  public static int hashBytesByWords(byte[] bytes, int offset, int length) {
    return hashBytesByWords(bytes, offset, length, DEFAULT_SEED);
  }

  public static int hashBytesByWords(byte[] bytes, int offset, int length, int seed) {
    if ((length & 3) != 0) {
      throw new IllegalArgumentException("length must be a multiple of 4, got " + length);
    }
    int h1 = seed;
    for (int i = 0; i < length; i += 4) {
      h1 = mixH1(h1, mixK1(LittleEndian.getInt(bytes, offset + i)));
    }
    return fmix(h1 ^ length);
  }

  static int mixK1(int k1) {
    k1 *= C1;
    k1 = Integer.rotateLeft(k1, 15);
    return k1 * C2;
  }

  static int mixH1(int h1, int k1) {
    h1 ^= k1;
    h1 = Integer.rotateLeft(h1, 13);
    return h1 * 5 + 0xe6546b64;
  }

  static int fmix(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }
}
