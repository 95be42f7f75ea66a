package io.lagoon.zorder;

import java.math.BigInteger;

/**
 * Order-preserving fixed-length byte keys of single values: for values {@code a < b} of one type,
 * {@code key(a) <= key(b)} comparing the keys as unsigned bytes, most significant first. Each
 * method writes into a caller's buffer, so computing keys allocates nothing per value. A null is
 * all zero bytes, which no key of a value is below (nulls first).
 */
public final class OrderBytes {
  private OrderBytes() {}

  /** Writes a null: {@code len} zero bytes. */
  public static void putNull(byte[] out, int off, int len) {
    java.util.Arrays.fill(out, off, off + len, (byte) 0);
  }

  public static void putBoolean(boolean v, byte[] out, int off) {
    out[off] = v ? (byte) 1 : (byte) 0;
  }

  /** A signed byte, sign bit flipped: -128 → 0x00, 127 → 0xff. */
  public static void putByte(byte v, byte[] out, int off) {
    out[off] = (byte) (v ^ 0x80);
  }

  public static void putShort(short v, byte[] out, int off) {
    int u = v ^ 0x8000;
    out[off] = (byte) (u >>> 8);
    out[off + 1] = (byte) u;
  }

  /** Big-endian with the sign bit flipped, so negatives sort before positives. Dates are days. */
  public static void putInt(int v, byte[] out, int off) {
    int u = v ^ Integer.MIN_VALUE;
    out[off] = (byte) (u >>> 24);
    out[off + 1] = (byte) (u >>> 16);
    out[off + 2] = (byte) (u >>> 8);
    out[off + 3] = (byte) u;
  }

  /** Big-endian with the sign bit flipped. Timestamps are micros (or millis), decimals up to 18 digits their unscaled value. */
  public static void putLong(long v, byte[] out, int off) {
    long u = v ^ Long.MIN_VALUE;
    for (int i = 7; i >= 0; i--) {
      out[off + i] = (byte) u;
      u >>>= 8;
    }
  }

  /**
   * IEEE bits made unsigned-comparable: negatives have every bit inverted, positives the sign bit
   * set. Order: -Inf, negatives, -0.0, 0.0, positives, +Inf, NaN (all NaNs alike).
   */
  public static void putFloat(float v, byte[] out, int off) {
    int bits = Float.floatToIntBits(v);
    putInt(bits < 0 ? ~bits ^ Integer.MIN_VALUE : bits, out, off);
  }

  public static void putDouble(double v, byte[] out, int off) {
    long bits = Double.doubleToLongBits(v);
    putLong(bits < 0 ? ~bits ^ Long.MIN_VALUE : bits, out, off);
  }

  /** Bytes a decimal of this precision takes: its unscaled value as a long up to 18 digits, 16 bytes beyond. */
  public static int decimalLength(int precision) {
    return precision <= 18 ? 8 : 16;
  }

  /**
   * A decimal of more than 18 digits (at most 38): its unscaled value as 128-bit two's complement,
   * big-endian, sign bit flipped. All values of one column share the scale, so unscaled order is
   * value order.
   */
  public static void putBigDecimalUnscaled(BigInteger unscaled, byte[] out, int off) {
    byte[] b = unscaled.toByteArray();
    if (b.length > 16) throw new IllegalArgumentException("decimal unscaled value exceeds 38 digits: " + unscaled);
    byte fill = unscaled.signum() < 0 ? (byte) 0xff : 0;
    int pad = 16 - b.length;
    for (int i = 0; i < pad; i++) out[off + i] = fill;
    System.arraycopy(b, 0, out, off + pad, b.length);
    out[off] ^= (byte) 0x80;
  }

  /**
   * The first {@code len} bytes of a string's UTF-8 bytes or of a binary value, zero-padded:
   * unsigned byte order of UTF-8 is code point order, so the prefix keeps the order (equal
   * prefixes tie).
   */
  public static void putPrefix(byte[] value, int valueOff, int valueLen, byte[] out, int off, int len) {
    int n = Math.min(len, valueLen);
    System.arraycopy(value, valueOff, out, off, n);
    if (n < len) java.util.Arrays.fill(out, off + n, off + len, (byte) 0);
  }

  /** Unsigned lexicographic comparison of two keys (what a sort by the key column does). */
  public static int compare(byte[] a, byte[] b) {
    return java.util.Arrays.compareUnsigned(a, b);
  }
}
