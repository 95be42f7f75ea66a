package io.lagoon.core.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * Keys computed from rows: monotone in each sort column for every supported type, columns named
 * case-insensitively, unsupported types and unknown columns refused, and no value boxed: a key
 * costs its own array and nothing else (measured with the JVM's per-thread allocation counter).
 */
class SortKeyEncoderTest {
  private static final StructType SCHEMA = new StructType()
      .add("i", DataTypes.IntegerType).add("l", DataTypes.LongType).add("s", DataTypes.StringType)
      .add("d", DataTypes.DoubleType).add("dec", new DecimalType(10, 2)).add("big", new DecimalType(30, 4))
      .add("ts", DataTypes.TimestampType).add("m", DataTypes.createMapType(DataTypes.IntegerType, DataTypes.IntegerType));

  private static UnsafeRow row(int i, long l, String s, double d, long cents, String big, long ts) {
    GenericInternalRow g = new GenericInternalRow(new Object[] {i, l, UTF8String.fromString(s), d,
        Decimal.apply(cents, 10, 2), Decimal.apply(new java.math.BigDecimal(big), 30, 4), ts, null});
    return UnsafeProjection.create(SCHEMA).apply(g).copy();
  }

  @Test
  void zOrderKeysAreMonotoneInEachColumn() {
    Random r = new Random(3);
    for (String column : List.of("i", "l", "s", "d", "dec", "big", "ts")) {
      SortKeyEncoder e = new SortKeyEncoder(SCHEMA, List.of(column.toUpperCase(), "i"), SortKeyEncoder.Curve.ZORDER, 8);
      for (int n = 0; n < 2000; n++) {
        int i = r.nextInt();
        long a = r.nextLong() / 4;
        long b = a + 1 + Math.abs(r.nextInt(1000));
        String sa = Long.toString(Math.abs(a), 36);
        InternalRow lo = row(i, a, "k" + sa, a / 3.0, a % 100_000_000, a + ".5", a);
        InternalRow hi = row(i, b, "k" + sa + "z", b / 3.0, b % 100_000_000, b + ".5", b);
        if (column.equals("dec") && lo.getDecimal(4, 10, 2).compare(hi.getDecimal(4, 10, 2)) > 0) continue;
        byte[] kl = e.key(lo);
        byte[] kh = e.key(hi);
        assertTrue(java.util.Arrays.compareUnsigned(kl, kh) <= 0, column + ": " + a + " vs " + b);
      }
    }
  }

  @Test
  void unknownColumnsAndUnsortableTypesAreRefused() {
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
        () -> new SortKeyEncoder(SCHEMA, List.of("nope"), SortKeyEncoder.Curve.ZORDER, 8));
    assertTrue(none.getMessage().contains("'nope' does not exist"), none.getMessage());
    IllegalArgumentException map = assertThrows(IllegalArgumentException.class,
        () -> new SortKeyEncoder(SCHEMA, List.of("m"), SortKeyEncoder.Curve.HILBERT, 8));
    assertTrue(map.getMessage().contains("'m' of type MAP<INT,INT> cannot be sorted"), map.getMessage());
  }

  @Test
  void aKeyAllocatesOnlyItself() {
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    for (SortKeyEncoder.Curve curve : SortKeyEncoder.Curve.values()) {
      SortKeyEncoder e = new SortKeyEncoder(SCHEMA, List.of("i", "l", "s", "d"), curve, 8);
      UnsafeRow[] rows = new UnsafeRow[64];
      for (int k = 0; k < rows.length; k++) rows[k] = row(k * 7919, k * 104729L, "value-" + k, k * 0.5, k, "1.0", k);
      long sink = 0;
      for (int n = 0; n < 200_000; n++) sink += e.key(rows[n & 63]).length; // warm-up
      int keys = 1_000_000;
      // The key array: 16 bytes of header plus its length, rounded to 8.
      long array = (16 + e.length() + 7) / 8 * 8;
      // The best of a few rounds: on a busy machine the JIT may not have compiled the loop yet.
      long perKey = Long.MAX_VALUE;
      for (int round = 0; round < 5 && perKey > array; round++) {
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int n = 0; n < keys; n++) sink += e.key(rows[n & 63])[0];
        perKey = Math.min(perKey, (mx.getCurrentThreadAllocatedBytes() - before) / keys);
      }
      assertTrue(perKey <= array, curve + ": " + perKey + " bytes per key, the key array alone is " + array + " (sink " + sink + ")");
      assertEquals(curve == SortKeyEncoder.Curve.ZORDER ? 28 : 32, e.length());
    }
  }
}
