package io.lagoon.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class BitSliceIndexTest {
  /** Every comparison against random columns (nulls, negatives, zero, wide and narrow ranges) is exact. */
  @Test
  void comparisonsAnswerWhatTheValuesSay() {
    Random r = new Random(9);
    long[] spans = {1, 7, 1000, 1L << 40, Long.MAX_VALUE};
    for (long span : spans) {
      for (int round = 0; round < 6; round++) {
        int n = 1 + r.nextInt(3000);
        List<Long> values = new ArrayList<>();
        BitSliceIndex.Builder b = new BitSliceIndex.Builder();
        boolean negatives = round % 2 == 0;
        for (int i = 0; i < n; i++) {
          Long v = r.nextInt(9) == 0 ? null : (long) (r.nextDouble() * span) * (negatives && r.nextBoolean() ? -1 : 1);
          values.add(v);
          b.add(v);
        }
        byte[] bytes = b.serialize();
        BitSliceIndex index = BitSliceIndex.read(bytes, 0, bytes.length);
        assertEquals(n, index.rowCount());
        List<Long> probes = new ArrayList<>(List.of(0L, 1L, -1L, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1));
        for (int i = 0; i < 20; i++) {
          Long v = values.get(r.nextInt(n));
          if (v != null) probes.add(v + r.nextInt(3) - 1);
        }
        for (long c : probes) {
          assertEquals(expected(values, v -> v >= c), index.atLeast(c), ">= " + c);
          assertEquals(expected(values, v -> v <= c), index.atMost(c), "<= " + c);
          assertEquals(expected(values, v -> v == c), index.equalTo(c), "= " + c);
        }
        assertEquals(expected(values, v -> true), index.nonNullRows());
      }
    }
  }

  private static RoaringBitmap expected(List<Long> values, java.util.function.LongPredicate p) {
    RoaringBitmap out = new RoaringBitmap();
    for (int i = 0; i < values.size(); i++) if (values.get(i) != null && p.test(values.get(i))) out.add(i);
    return out;
  }

  @Test
  void emptyAndAllNullFilesAndBadInput() {
    BitSliceIndex.Builder b = new BitSliceIndex.Builder();
    b.add(null);
    b.add(null);
    byte[] bytes = b.serialize();
    assertEquals(7, bytes.length);
    BitSliceIndex index = BitSliceIndex.read(bytes, 0, bytes.length);
    assertEquals(2, index.rowCount());
    assertEquals(new RoaringBitmap(), index.atLeast(Long.MIN_VALUE));
    byte[] bad = bytes.clone();
    bad[0] = 2;
    assertThrows(IllegalArgumentException.class, () -> BitSliceIndex.read(bad, 0, bad.length));
    assertThrows(IllegalArgumentException.class, () -> BitSliceIndex.read(bytes, 0, 3));
    BitSliceIndex.Builder min = new BitSliceIndex.Builder();
    min.add(5L);
    min.add(Long.MIN_VALUE);
    assertEquals(null, min.serialize(), "a file holding Long.MIN_VALUE gets no bsi index");
  }
}
