package io.lagoon.zorder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Z-order keys are monotone in every column; the Hilbert key is a bijection of the grid whose
 * consecutive positions are neighbours; computing either per row allocates nothing.
 */
class CurveKeyPropertyTest {
  private final Random random = new Random(7);

  @Test
  void zOrderIsMonotoneInEveryColumn() {
    Interleave z = new Interleave(new int[] {8, 4, 8});
    byte[] ka = new byte[20];
    byte[] kb = new byte[20];
    byte[] za = new byte[20];
    byte[] zb = new byte[20];
    for (int i = 0; i < 100_000; i++) {
      long a0 = random.nextLong();
      int a1 = random.nextInt();
      double a2 = random.nextGaussian();
      // b is at least a in every column (one column may be equal).
      long b0 = random.nextInt(3) == 0 ? a0 : Math.max(a0, random.nextLong());
      int b1 = random.nextInt(3) == 0 ? a1 : Math.max(a1, random.nextInt());
      double b2 = random.nextInt(3) == 0 ? a2 : Math.max(a2, random.nextGaussian());
      OrderBytes.putLong(a0, ka, 0);
      OrderBytes.putInt(a1, ka, 8);
      OrderBytes.putDouble(a2, ka, 12);
      OrderBytes.putLong(b0, kb, 0);
      OrderBytes.putInt(b1, kb, 8);
      OrderBytes.putDouble(b2, kb, 12);
      z.apply(ka, 0, za, 0);
      z.apply(kb, 0, zb, 0);
      assertTrue(OrderBytes.compare(za, zb) <= 0, "z-order of a point is above one that dominates it");
    }
  }

  @Test
  void zOrderInterleavesBitsMostSignificantFirst() {
    Interleave z = new Interleave(new int[] {1, 2});
    byte[] out = new byte[3];
    // column 0 = 1111 0000, column 1 = 0000 0000 1111 1111
    z.apply(new byte[] {(byte) 0xf0, 0x00, (byte) 0xff}, 0, out, 0);
    // bits: c0 c1 pairs for 8 bits (10 10 10 10 00 00 00 00), then column 1 alone (1111 1111)
    assertEquals("aa00ff", java.util.HexFormat.of().formatHex(out));
  }

  @Test
  void hilbertVisitsEveryCellOnceStepByStep() {
    for (int dims = 2; dims <= 3; dims++) {
      int bits = dims == 2 ? 5 : 3;
      HilbertKey h = new HilbertKey(dims, bits);
      int cells = 1 << (dims * bits);
      long[][] byPosition = new long[cells][];
      byte[] key = new byte[h.length()];
      int side = 1 << bits;
      for (int c = 0; c < cells; c++) {
        long[] p = new long[dims];
        int rest = c;
        for (int d = 0; d < dims; d++) {
          p[d] = rest % side;
          rest /= side;
        }
        h.apply(p.clone(), key, 0);
        // The key's leading dims*bits bits are the position.
        int position = new BigInteger(1, key).shiftRight(key.length * 8 - dims * bits).intValueExact();
        assertEquals(null, byPosition[position], "two cells at one position");
        byPosition[position] = p;
      }
      for (int i = 1; i < cells; i++) {
        long dist = 0;
        for (int d = 0; d < dims; d++) dist += Math.abs(byPosition[i][d] - byPosition[i - 1][d]);
        assertEquals(1, dist, dims + "-d positions " + (i - 1) + " and " + i + " are not neighbours");
      }
    }
  }

  @Test
  void hilbertOfFullWidthCoordinatesIsInjectiveOnSamples() {
    HilbertKey h = new HilbertKey(2, 64);
    Set<String> seen = new HashSet<>();
    byte[] key = new byte[h.length()];
    for (int i = 0; i < 20_000; i++) {
      h.apply(new long[] {random.nextLong(), random.nextLong()}, key, 0);
      assertTrue(seen.add(java.util.HexFormat.of().formatHex(key)));
    }
  }

  /** Per-row key computation allocates nothing: measured with the JVM's per-thread allocation counter. */
  @Test
  void computingKeysAllocatesNothingPerRow() {
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    Interleave z = new Interleave(new int[] {8, 8});
    HilbertKey h = new HilbertKey(2, 64);
    byte[] cols = new byte[16];
    byte[] out = new byte[16];
    long[] coords = new long[2];
    byte[] text = "a fairly long string value".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    run(z, h, cols, out, coords, text, 200_000); // warm-up, so JIT compilation does not count
    long before = mx.getCurrentThreadAllocatedBytes();
    int rows = 1_000_000;
    run(z, h, cols, out, coords, text, rows);
    long perRow = (mx.getCurrentThreadAllocatedBytes() - before) / rows;
    assertTrue(perRow < 1, "bytes allocated per row: " + perRow);
  }

  private static void run(Interleave z, HilbertKey h, byte[] cols, byte[] out, long[] coords, byte[] text, int rows) {
    for (int i = 0; i < rows; i++) {
      OrderBytes.putLong(i * 31L, cols, 0);
      OrderBytes.putPrefix(text, 0, text.length, cols, 8, 8);
      z.apply(cols, 0, out, 0);
      coords[0] = HilbertKey.coordinate(cols, 0, 8);
      coords[1] = HilbertKey.coordinate(cols, 8, 8);
      h.apply(coords, out, 0);
    }
  }
}
