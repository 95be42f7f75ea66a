package io.lagoon.index;

/**
 * XXH64, the 64-bit xxHash of a byte range with seed 0, as its public specification defines it:
 * Paimon's Bloom filter index hashes strings and binary values this way.
 */
public final class Xxh64 {
  private static final long P1 = 0x9E3779B185EBCA87L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;
  private static final long P3 = 0x165667B19E3779F9L;
  private static final long P4 = 0x85EBCA77C2B2AE63L;
  private static final long P5 = 0x27D4EB2F165667C5L;

  private Xxh64() {}

  public static long hash(byte[] data) {
    return hash(data, 0, data.length);
  }

  public static long hash(byte[] data, int offset, int length) {
    int p = offset;
    int end = offset + length;
    long h;
    if (length >= 32) {
      long v1 = P1 + P2;
      long v2 = P2;
      long v3 = 0;
      long v4 = -P1;
      for (int limit = end - 32; p <= limit; p += 32) {
        v1 = round(v1, le64(data, p));
        v2 = round(v2, le64(data, p + 8));
        v3 = round(v3, le64(data, p + 16));
        v4 = round(v4, le64(data, p + 24));
      }
      h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
      h = merge(h, v1);
      h = merge(h, v2);
      h = merge(h, v3);
      h = merge(h, v4);
    } else {
      h = P5;
    }
    h += length;
    for (; p + 8 <= end; p += 8) {
      h ^= round(0, le64(data, p));
      h = Long.rotateLeft(h, 27) * P1 + P4;
    }
    if (p + 4 <= end) {
      h ^= (le32(data, p) & 0xFFFFFFFFL) * P1;
      h = Long.rotateLeft(h, 23) * P2 + P3;
      p += 4;
    }
    for (; p < end; p++) {
      h ^= (data[p] & 0xFFL) * P5;
      h = Long.rotateLeft(h, 11) * P1;
    }
    h ^= h >>> 33;
    h *= P2;
    h ^= h >>> 29;
    h *= P3;
    h ^= h >>> 32;
    return h;
  }

  private static long round(long acc, long input) {
    acc += input * P2;
    return Long.rotateLeft(acc, 31) * P1;
  }

  private static long merge(long acc, long v) {
    acc ^= round(0, v);
    return acc * P1 + P4;
  }

  private static long le64(byte[] b, int i) {
    return (b[i] & 0xFFL) | (b[i + 1] & 0xFFL) << 8 | (b[i + 2] & 0xFFL) << 16 | (b[i + 3] & 0xFFL) << 24
        | (b[i + 4] & 0xFFL) << 32 | (b[i + 5] & 0xFFL) << 40 | (b[i + 6] & 0xFFL) << 48 | (b[i + 7] & 0xFFL) << 56;
  }

  private static int le32(byte[] b, int i) {
    return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | (b[i + 3] & 0xFF) << 24;
  }
}
