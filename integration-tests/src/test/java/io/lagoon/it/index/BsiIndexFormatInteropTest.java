package io.lagoon.it.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.index.BitSliceIndex;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.fileindex.FileIndexWriter;
import org.apache.paimon.fileindex.bsi.BitSliceIndexBitmapFileIndex;
import org.apache.paimon.options.Options;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/**
 * Lagoon's bit-sliced index is Paimon's, byte for byte: for random columns (nulls, negatives,
 * zero) of every type Paimon builds it for, Lagoon's writer gives the bytes Paimon 1.3.1's gives,
 * and Lagoon's reader answers range comparisons on Paimon's bytes as the values say.
 */
@RequiresPaimon131
class BsiIndexFormatInteropTest {
  private static void sameBytes(DataType type, Function<Long, Object> internal, long span, Random r) {
    for (int round = 0; round < 4; round++) {
      List<Long> values = new ArrayList<>();
      int n = 1 + r.nextInt(2000);
      for (int i = 0; i < n; i++) {
        values.add(r.nextInt(7) == 0 ? null : (long) (r.nextDouble() * span) * (round % 2 == 0 && r.nextBoolean() ? -1 : 1));
      }
      FileIndexWriter paimon = new BitSliceIndexBitmapFileIndex(type, new Options()).createWriter();
      BitSliceIndex.Builder mine = new BitSliceIndex.Builder();
      for (Long v : values) {
        paimon.write(v == null ? null : internal.apply(v));
        mine.add(v);
      }
      byte[] theirs = paimon.serializedBytes();
      assertArrayEquals(theirs, mine.serialize(), type + " round " + round);
      BitSliceIndex read = BitSliceIndex.read(theirs, 0, theirs.length);
      long c = values.stream().filter(v -> v != null).findFirst().orElse(0L);
      RoaringBitmap want = new RoaringBitmap();
      for (int i = 0; i < n; i++) if (values.get(i) != null && values.get(i) >= c) want.add(i);
      assertEquals(want, read.atLeast(c));
    }
  }

  @Test
  void bsiBytesEqualPaimonsForEveryType() {
    Random r = new Random(31);
    sameBytes(DataTypes.INT(), v -> (int) (long) v, Integer.MAX_VALUE, r);
    sameBytes(DataTypes.BIGINT(), v -> v, Long.MAX_VALUE / 3, r);
    sameBytes(DataTypes.SMALLINT(), v -> (short) (long) v, Short.MAX_VALUE, r);
    sameBytes(DataTypes.TINYINT(), v -> (byte) (long) v, Byte.MAX_VALUE, r);
    sameBytes(DataTypes.DATE(), v -> (int) (long) v, 40000, r);
    sameBytes(DataTypes.DECIMAL(12, 2), v -> Decimal.fromUnscaledLong(v, 12, 2), 99_999_999_999L, r);
  }
}
