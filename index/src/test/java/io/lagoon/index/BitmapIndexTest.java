package io.lagoon.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class BitmapIndexTest {
  /** Random columns (few or many distinct values, nulls, values seen once) read back row for row. */
  @Test
  void everyRowIsFoundUnderItsValueAfterARoundTrip() {
    Random r = new Random(5);
    for (BitmapIndex.Width width : BitmapIndex.Width.values()) {
      for (int distinct : new int[] {1, 3, 50, 5000}) {
        int rows = 1 + r.nextInt(20000);
        List<BitmapIndex.Key> column = new ArrayList<>();
        Map<BitmapIndex.Key, RoaringBitmap> expected = new HashMap<>();
        RoaringBitmap nulls = new RoaringBitmap();
        BitmapIndex.Builder b = new BitmapIndex.Builder(width);
        for (int i = 0; i < rows; i++) {
          BitmapIndex.Key k = r.nextInt(10) == 0 ? null : key(width, r.nextInt(distinct));
          column.add(k);
          if (k == null) nulls.add(i);
          else expected.computeIfAbsent(k, x -> new RoaringBitmap()).add(i);
          b.add(k);
        }
        byte[] bytes = b.serialize();
        byte[] padded = new byte[bytes.length + 7];
        System.arraycopy(bytes, 0, padded, 3, bytes.length);
        BitmapIndex read = BitmapIndex.read(padded, 3, bytes.length, width);
        assertEquals(rows, read.rowCount());
        assertEquals(expected.size(), read.distinctValues());
        assertEquals(nulls, read.nullRows());
        for (Map.Entry<BitmapIndex.Key, RoaringBitmap> e : expected.entrySet()) {
          assertEquals(e.getValue(), read.rowsOf(e.getKey()), width + " " + distinct);
        }
        BitmapIndex.Key absent = key(width, distinct + 1);
        if (!expected.containsKey(absent)) { // narrow widths wrap around
          assertFalse(read.contains(absent));
          assertTrue(read.rowsOf(absent).isEmpty());
        }
      }
    }
  }

  private static BitmapIndex.Key key(BitmapIndex.Width width, int v) {
    switch (width) {
      case ONE: return BitmapIndex.Key.ofByte((byte) v);
      case TWO: return BitmapIndex.Key.ofShort((short) v);
      case FOUR: return BitmapIndex.Key.ofInt(v);
      case EIGHT: return BitmapIndex.Key.ofLong(v * 1_000_003L);
      default: return BitmapIndex.Key.of(("value-" + v).repeat(1 + v % 3).getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void aValueOrNullInOneRowIsStoredAsItsPosition() {
    BitmapIndex.Builder b = new BitmapIndex.Builder(BitmapIndex.Width.FOUR);
    b.add(BitmapIndex.Key.ofInt(5));
    b.add(null);
    b.add(BitmapIndex.Key.ofInt(7));
    // version, rows, distinct, has null, null at row 1, 5 at row 0, 7 at row 2: no bitmaps at all
    assertEquals(1 + 4 + 4 + 1 + 4 + 2 * 8, b.serialize().length);
    BitmapIndex read = BitmapIndex.read(b.serialize(), 0, b.serialize().length, BitmapIndex.Width.FOUR);
    assertEquals(RoaringBitmap.bitmapOf(1), read.nullRows());
    assertEquals(RoaringBitmap.bitmapOf(2), read.rowsOf(BitmapIndex.Key.ofInt(7)));
  }

  @Test
  void unreadableIndexesAreRefusedNamingWhy() {
    byte[] ok = new BitmapIndex.Builder(BitmapIndex.Width.FOUR).serialize();
    byte[] v3 = ok.clone();
    v3[0] = 3;
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> BitmapIndex.read(v3, 0, v3.length, BitmapIndex.Width.FOUR));
    assertTrue(e.getMessage().contains("version 3"), e.getMessage());
    BitmapIndex.Builder b = new BitmapIndex.Builder(BitmapIndex.Width.FOUR);
    for (int i = 0; i < 10; i++) b.add(BitmapIndex.Key.ofInt(i % 2));
    byte[] bytes = b.serialize();
    bytes[bytes.length - 10] ^= 0x7f;
    // The head reads; a bitmap is read when first asked for, and one that cannot be is refused then.
    BitmapIndex cut = BitmapIndex.read(bytes, 0, bytes.length - 9, BitmapIndex.Width.FOUR);
    assertEquals(2, cut.distinctValues());
    assertThrows(IllegalArgumentException.class, () -> {
      cut.rowsOf(BitmapIndex.Key.ofInt(0));
      cut.rowsOf(BitmapIndex.Key.ofInt(1));
    });
    assertThrows(IllegalArgumentException.class,
        () -> new BitmapIndex.Builder(BitmapIndex.Width.EIGHT).add(BitmapIndex.Key.ofInt(1)));
  }
}
