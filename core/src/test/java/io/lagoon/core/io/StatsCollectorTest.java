package io.lagoon.core.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** Min, max and null counts against a plain model that compares boxed values. */
class StatsCollectorTest {
  private static final List<PaimonType> TYPES = List.of(
      PaimonType.of(TypeRoot.BOOLEAN), PaimonType.of(TypeRoot.TINYINT), PaimonType.of(TypeRoot.SMALLINT),
      PaimonType.of(TypeRoot.INT), PaimonType.of(TypeRoot.DATE), PaimonType.of(TypeRoot.BIGINT),
      PaimonType.of(TypeRoot.FLOAT), PaimonType.of(TypeRoot.DOUBLE),
      PaimonType.withLength(TypeRoot.VARCHAR, Integer.MAX_VALUE), PaimonType.decimal(10, 2),
      PaimonType.withLength(TypeRoot.VARBINARY, Integer.MAX_VALUE));

  private static Object value(int column, Random rnd) {
    if (rnd.nextInt(6) == 0) return null;
    switch (column) {
      case 0: return rnd.nextBoolean();
      case 1: return (byte) rnd.nextInt(256);
      case 2: return (short) rnd.nextInt(65536);
      case 3: case 4: return rnd.nextInt();
      case 5: return rnd.nextLong();
      case 6: {
        float[] special = {Float.NaN, -0.0f, 0.0f, Float.NEGATIVE_INFINITY, Float.MAX_VALUE};
        return rnd.nextInt(4) == 0 ? special[rnd.nextInt(special.length)] : (rnd.nextFloat() - 0.5f) * 1e6f;
      }
      case 7: {
        double[] special = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, -Double.MAX_VALUE};
        return rnd.nextInt(4) == 0 ? special[rnd.nextInt(special.length)] : rnd.nextGaussian() * 1e9;
      }
      case 8: return UTF8String.fromString("s" + Integer.toString(rnd.nextInt(1_000_000), 36).repeat(1 + rnd.nextInt(5)));
      case 9: return Decimal.apply(rnd.nextInt(2_000_000) - 1_000_000, 10, 2);
      default: return new byte[] {(byte) rnd.nextInt()};
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  @Test
  void matchesBoxedComparisonsOnRandomRows() {
    Random rnd = new Random(11);
    for (int round = 0; round < 30; round++) {
      StatsCollector stats = new StatsCollector(TYPES);
      int n = TYPES.size();
      Object[] min = new Object[n];
      Object[] max = new Object[n];
      Long[] nulls = new Long[n];
      java.util.Arrays.fill(nulls, 0L);
      int rows = rnd.nextInt(50);
      for (int r = 0; r < rows; r++) {
        Object[] values = new Object[n];
        for (int c = 0; c < n; c++) values[c] = value(c, rnd);
        stats.update(new GenericInternalRow(values));
        for (int c = 0; c < n; c++) {
          Object v = values[c];
          if (v == null) {
            nulls[c]++;
            continue;
          }
          if (v instanceof byte[]) continue;
          if (min[c] == null || ((Comparable) v).compareTo(min[c]) < 0) min[c] = v;
          if (max[c] == null || ((Comparable) v).compareTo(max[c]) > 0) max[c] = v;
        }
      }
      List<Object> expectedMin = new ArrayList<>();
      List<Object> expectedMax = new ArrayList<>();
      for (int c = 0; c < n; c++) {
        expectedMin.add(min[c] instanceof UTF8String ? StatsCollector.truncateMin((UTF8String) min[c]) : min[c]);
        expectedMax.add(max[c] instanceof UTF8String ? StatsCollector.truncateMax((UTF8String) max[c]) : max[c]);
      }
      assertEquals(expectedMin, new ArrayList<>(java.util.Arrays.asList(stats.mins())), "mins, round " + round);
      assertEquals(expectedMax, new ArrayList<>(java.util.Arrays.asList(stats.maxs())), "maxs, round " + round);
      assertArrayEquals(nulls, stats.nullCounts(), "null counts, round " + round);
    }
  }
}
