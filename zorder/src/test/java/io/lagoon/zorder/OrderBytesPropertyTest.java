package io.lagoon.zorder;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** For random values a < b of each type, key(a) <= key(b) as unsigned bytes; nulls sort first. */
class OrderBytesPropertyTest {
  private static final int ROUNDS = 200_000;
  private final Random random = new Random(20261204);

  private static void ordered(byte[] a, byte[] b, Object va, Object vb) {
    assertTrue(OrderBytes.compare(a, b) <= 0, () -> "key(" + va + ") > key(" + vb + ")");
  }

  @Test
  void integersKeepTheirOrderAcrossTheSign() {
    byte[] a = new byte[8];
    byte[] b = new byte[8];
    long[] edges = {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE};
    for (int i = 0; i < ROUNDS; i++) {
      long x = i < 49 ? edges[i % 7] : random.nextInt(4) == 0 ? random.nextInt(200) - 100 : random.nextLong();
      long y = i < 49 ? edges[i / 7] : random.nextInt(4) == 0 ? random.nextInt(200) - 100 : random.nextLong();
      long lo = Math.min(x, y);
      long hi = Math.max(x, y);
      OrderBytes.putLong(lo, a, 0);
      OrderBytes.putLong(hi, b, 0);
      ordered(a, b, lo, hi);
      OrderBytes.putInt((int) lo, a, 0);
      OrderBytes.putInt((int) hi, b, 0);
      if ((int) lo <= (int) hi) ordered(java.util.Arrays.copyOf(a, 4), java.util.Arrays.copyOf(b, 4), (int) lo, (int) hi);
      else ordered(java.util.Arrays.copyOf(b, 4), java.util.Arrays.copyOf(a, 4), (int) hi, (int) lo);
      short sl = (short) lo;
      short sh = (short) hi;
      OrderBytes.putShort((short) Math.min(sl, sh), a, 0);
      OrderBytes.putShort((short) Math.max(sl, sh), b, 0);
      ordered(java.util.Arrays.copyOf(a, 2), java.util.Arrays.copyOf(b, 2), Math.min(sl, sh), Math.max(sl, sh));
      byte bl = (byte) lo;
      byte bh = (byte) hi;
      OrderBytes.putByte((byte) Math.min(bl, bh), a, 0);
      OrderBytes.putByte((byte) Math.max(bl, bh), b, 0);
      ordered(java.util.Arrays.copyOf(a, 1), java.util.Arrays.copyOf(b, 1), Math.min(bl, bh), Math.max(bl, bh));
    }
  }

  @Test
  void floatingPointOrdersNegativesZerosInfinitiesAndNaN() {
    byte[] a = new byte[8];
    byte[] b = new byte[8];
    double[] special = {Double.NEGATIVE_INFINITY, -Double.MAX_VALUE, -1.5, -Double.MIN_VALUE, -0.0, 0.0, Double.MIN_VALUE,
        2.5, Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NaN};
    for (int i = 0; i < ROUNDS; i++) {
      double x = i < 121 ? special[i % 11] : random.nextBoolean() ? Double.longBitsToDouble(random.nextLong())
          : random.nextGaussian() * 1000;
      double y = i < 121 ? special[i / 11] : random.nextBoolean() ? Double.longBitsToDouble(random.nextLong())
          : random.nextGaussian() * 1000;
      double lo = Double.compare(x, y) <= 0 ? x : y;
      double hi = Double.compare(x, y) <= 0 ? y : x;
      OrderBytes.putDouble(lo, a, 0);
      OrderBytes.putDouble(hi, b, 0);
      ordered(a, b, lo, hi);
      float fl = (float) lo;
      float fh = (float) hi;
      if (Float.compare(fl, fh) > 0) {
        float t = fl;
        fl = fh;
        fh = t;
      }
      OrderBytes.putFloat(fl, a, 0);
      OrderBytes.putFloat(fh, b, 0);
      ordered(java.util.Arrays.copyOf(a, 4), java.util.Arrays.copyOf(b, 4), fl, fh);
    }
  }

  @Test
  void decimalsOfAnyPrecisionByTheirUnscaledValue() {
    byte[] a = new byte[16];
    byte[] b = new byte[16];
    for (int i = 0; i < ROUNDS / 4; i++) {
      BigInteger x = new BigInteger(random.nextInt(126) + 1, random).multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1));
      BigInteger y = new BigInteger(random.nextInt(126) + 1, random).multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1));
      BigInteger lo = x.min(y);
      BigInteger hi = x.max(y);
      OrderBytes.putBigDecimalUnscaled(lo, a, 0);
      OrderBytes.putBigDecimalUnscaled(hi, b, 0);
      ordered(a, b, new BigDecimal(lo, 10), new BigDecimal(hi, 10));
    }
  }

  @Test
  void stringsAndBinaryByAPrefixOfTheirBytes() {
    byte[] a = new byte[8];
    byte[] b = new byte[8];
    for (int i = 0; i < ROUNDS; i++) {
      String x = randomString();
      String y = randomString();
      // Spark orders strings by their UTF-8 bytes, unsigned: the order a sort by the column gives.
      byte[] bx = x.getBytes(StandardCharsets.UTF_8);
      byte[] by = y.getBytes(StandardCharsets.UTF_8);
      byte[] lo = java.util.Arrays.compareUnsigned(bx, by) <= 0 ? bx : by;
      byte[] hi = lo == bx ? by : bx;
      OrderBytes.putPrefix(lo, 0, lo.length, a, 0, 8);
      OrderBytes.putPrefix(hi, 0, hi.length, b, 0, 8);
      ordered(a, b, x, y);
    }
  }

  private String randomString() {
    int n = random.nextInt(12);
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < n; i++) {
      int kind = random.nextInt(4);
      s.appendCodePoint(kind == 0 ? 'a' + random.nextInt(3) : kind == 1 ? random.nextInt(0x80)
          : kind == 2 ? 0x400 + random.nextInt(0x200) : 0x1F600 + random.nextInt(50));
    }
    return s.toString();
  }

  @Test
  void booleansAndNullsFirst() {
    byte[] f = new byte[1];
    byte[] t = new byte[1];
    byte[] n = new byte[1];
    OrderBytes.putBoolean(false, f, 0);
    OrderBytes.putBoolean(true, t, 0);
    OrderBytes.putNull(n, 0, 1);
    ordered(f, t, false, true);
    ordered(n, f, null, false);
    byte[] nl = new byte[8];
    byte[] min = new byte[8];
    OrderBytes.putNull(nl, 0, 8);
    OrderBytes.putLong(Long.MIN_VALUE, min, 0);
    ordered(nl, min, null, Long.MIN_VALUE);
    OrderBytes.putDouble(Double.NEGATIVE_INFINITY, min, 0);
    ordered(nl, min, null, Double.NEGATIVE_INFINITY);
  }
}
