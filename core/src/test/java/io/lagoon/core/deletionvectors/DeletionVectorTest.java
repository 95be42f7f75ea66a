package io.lagoon.core.deletionvectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.AbstractMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class DeletionVectorTest {
  private static void assertSame(TreeSet<Long> model, DeletionVector dv, long probeLimit, Random rnd) {
    assertEquals(model.size(), dv.cardinality());
    for (long p : model) assertTrue(dv.isDeleted(p), "deleted " + p);
    for (int i = 0; i < 2000; i++) {
      long p = Math.floorMod(rnd.nextLong(), probeLimit);
      assertEquals(model.contains(p), dv.isDeleted(p), "position " + p);
    }
  }

  /** Ranges within 2^31, across it and across the 2^32 boundary of the 64-bit form, dense and sparse. */
  @Test
  void deletedInListsExactlyTheDeletedOffsetsOfARange() {
    Random rnd = new Random(9);
    for (boolean wide : new boolean[] {false, true}) {
      long[] bases = wide ? new long[] {0, (1L << 31) - 500, (1L << 32) - 700, 5L << 32} : new long[] {0, 1_000_000,
          Integer.MAX_VALUE - 3000L};
      for (long base : bases) {
        TreeSet<Long> model = new TreeSet<>();
        DeletionVector dv = DeletionVector.empty(wide);
        for (int i = 0; i < 1500; i++) {
          long p = base + (rnd.nextBoolean() ? rnd.nextInt(300) : rnd.nextInt(3000));
          if (p > (wide ? Long.MAX_VALUE : Integer.MAX_VALUE)) continue;
          model.add(p);
          dv.delete(p);
        }
        for (int probe = 0; probe < 200; probe++) {
          long from = base + rnd.nextInt(3100) - 50;
          if (from < 0) from = 0;
          int count = 1 + rnd.nextInt(1200);
          int[] out = new int[count];
          int n = dv.deletedIn(from, count, out);
          List<Long> expected = new java.util.ArrayList<>();
          for (long p : model.subSet(from, from + count)) expected.add(p - from);
          List<Long> actual = new java.util.ArrayList<>();
          for (int i = 0; i < n; i++) actual.add((long) out[i]);
          assertEquals(expected, actual, "range [" + from + ", " + (from + count) + ") wide=" + wide);
        }
      }
    }
    assertEquals(0, DeletionVector.empty(false).deletedIn(0, 10, new int[10]));
  }

  @Test
  void bothFormsRoundTripRandomPositions() {
    Random rnd = new Random(5);
    for (boolean wide : new boolean[] {false, true}) {
      for (int round = 0; round < 20; round++) {
        TreeSet<Long> model = new TreeSet<>();
        DeletionVector dv = DeletionVector.empty(wide);
        long limit = wide ? 1L << 40 : Integer.MAX_VALUE;
        int n = rnd.nextInt(3000);
        for (int i = 0; i < n; i++) {
          // Dense runs and scattered positions, so array, bitmap and run containers all appear.
          long p = rnd.nextBoolean() ? rnd.nextInt(100_000) : Math.floorMod(rnd.nextLong(), limit);
          model.add(p);
          dv.delete(p);
        }
        byte[] bytes = dv.serialize();
        int magic = wide ? ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt()
            : ByteBuffer.wrap(bytes).getInt();
        assertEquals(wide ? DeletionVector.MAGIC_64 : DeletionVector.MAGIC_32, magic);
        DeletionVector back = DeletionVector.deserialize(bytes);
        assertEquals(wide, back.bitmap64());
        assertSame(model, back, limit, rnd);
      }
    }
  }

  @Test
  void mergeAddsPositionsAndThirtyTwoBitsRefusesLargePositions() {
    DeletionVector a = DeletionVector.empty(false);
    a.delete(1);
    DeletionVector b = DeletionVector.empty(false);
    b.delete(7);
    a.merge(b);
    assertTrue(a.isDeleted(1) && a.isDeleted(7));
    assertFalse(a.isDeleted(2));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.delete(1L << 31));
    assertTrue(e.getMessage().contains("deletion-vectors.bitmap64"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> a.delete(-1));
  }

  @Test
  void unknownMagicIsNamed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DeletionVector.deserialize(new byte[] {1, 2, 3, 4, 5, 6}));
    assertTrue(e.getMessage().contains("magic"), e.getMessage());
  }

  @Test
  void indexFileHoldsManyVectorsAndDetectsCorruption() {
    DeletionVector a = DeletionVector.empty(false);
    for (int i = 0; i < 1000; i += 3) a.delete(i);
    DeletionVector b = DeletionVector.empty(true);
    b.delete(5);
    b.delete(1L << 35);
    List<Map.Entry<String, DeletionVector>> in = List.of(
        new AbstractMap.SimpleEntry<>("data-a.parquet", a), new AbstractMap.SimpleEntry<>("data-b.parquet", b));
    DeletionVectorFile.Written w = DeletionVectorFile.write(in);
    assertEquals(DeletionVectorFile.VERSION, w.bytes[0]);
    assertEquals(2, w.ranges.size());
    assertEquals(1, w.ranges.get(0).offset);
    DeletionVector a2 = DeletionVectorFile.read(w.bytes, w.ranges.get(0), "index-1");
    DeletionVector b2 = DeletionVectorFile.read(w.bytes, w.ranges.get(1), "index-1");
    assertEquals(334, a2.cardinality());
    assertTrue(a2.isDeleted(999) && !a2.isDeleted(998));
    assertTrue(b2.isDeleted(1L << 35) && b2.isDeleted(5) && !b2.isDeleted(6));

    byte[] flipped = w.bytes.clone();
    flipped[w.ranges.get(1).offset + 10] ^= 1;
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> DeletionVectorFile.read(flipped, w.ranges.get(1), "index-1"));
    assertTrue(e.getMessage().contains("data-b.parquet") && e.getMessage().contains("index-1")
        && e.getMessage().contains("checksum"), e.getMessage());
    byte[] truncated = java.util.Arrays.copyOf(w.bytes, w.ranges.get(1).offset + 6);
    e = assertThrows(IllegalStateException.class, () -> DeletionVectorFile.read(truncated, w.ranges.get(1), "index-1"));
    assertTrue(e.getMessage().contains("data-b.parquet"), e.getMessage());
    DeletionVectorRange wrongCount = new DeletionVectorRange("data-a.parquet", w.ranges.get(0).offset,
        w.ranges.get(0).length, 5L);
    e = assertThrows(IllegalStateException.class, () -> DeletionVectorFile.read(w.bytes, wrongCount, "index-1"));
    assertTrue(e.getMessage().contains("says 5"), e.getMessage());
  }
}
