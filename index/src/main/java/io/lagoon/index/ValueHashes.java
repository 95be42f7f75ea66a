package io.lagoon.index;

/**
 * The 64-bit hashes Paimon's Bloom filter index gives values: XXH64 (seed 0) of the bytes of
 * strings (UTF-8) and binary values; Thomas Wang's 64-bit integer mix of integral values (widened
 * to long), of dates (epoch days), times (millis of day), float bits ({@code floatToIntBits}),
 * double bits ({@code doubleToLongBits}), and timestamps (epoch millis up to precision 3, micros
 * above). Decimals and booleans have no Bloom index.
 */
public final class ValueHashes {
  private ValueHashes() {}

  public static long ofBytes(byte[] value) {
    return Xxh64.hash(value);
  }

  public static long ofBytes(byte[] value, int offset, int length) {
    return Xxh64.hash(value, offset, length);
  }

  /** Thomas Wang's 64-bit mix, with arithmetic right shifts as Paimon computes it. */
  public static long ofLong(long key) {
    key = ~key + (key << 21);
    key ^= key >> 24;
    key = key + (key << 3) + (key << 8);
    key ^= key >> 14;
    key = key + (key << 2) + (key << 4);
    key ^= key >> 28;
    key += key << 31;
    return key;
  }

  public static long ofFloat(float value) {
    return ofLong(Float.floatToIntBits(value));
  }

  public static long ofDouble(double value) {
    return ofLong(Double.doubleToLongBits(value));
  }
}
