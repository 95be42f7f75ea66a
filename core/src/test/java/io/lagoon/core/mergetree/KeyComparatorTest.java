package io.lagoon.core.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.Test;

class KeyComparatorTest {
  private static InternalRow row(Object... values) {
    return new GenericInternalRow(values);
  }

  @Test
  void integralKeysCompareAsTheirLongs() {
    Object[][] samples = {
        {TypeRoot.TINYINT, new Object[] {(byte) -128, (byte) -1, (byte) 0, (byte) 127}},
        {TypeRoot.SMALLINT, new Object[] {(short) -300, (short) 0, (short) 300}},
        {TypeRoot.INT, new Object[] {Integer.MIN_VALUE, -5, 0, 5, Integer.MAX_VALUE}},
        {TypeRoot.DATE, new Object[] {-10, 0, 20000}},
        {TypeRoot.BIGINT, new Object[] {Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE}},
        {TypeRoot.TIMESTAMP, new Object[] {-1_000_000L, 0L, 1_700_000_000_000_000L}},
    };
    for (Object[] s : samples) {
      KeyComparator keys = new KeyComparator(List.of(PaimonType.of((TypeRoot) s[0])));
      assertTrue(keys.singleIntegralKey(), s[0].toString());
      Object[] values = (Object[]) s[1];
      for (Object a : values) {
        for (Object b : values) {
          int rows = Integer.signum(keys.compare(row(a), row(b)));
          int longs = Long.signum(Long.compare(keys.longKey(row(a)), keys.longKey(row(b))));
          assertEquals(rows, longs, s[0] + ": " + a + " vs " + b);
        }
      }
    }
  }

  @Test
  void otherKeysAreComparedAsRows() {
    assertFalse(new KeyComparator(List.of(PaimonType.of(TypeRoot.VARCHAR))).singleIntegralKey());
    assertFalse(new KeyComparator(List.of(PaimonType.of(TypeRoot.DOUBLE))).singleIntegralKey());
    assertFalse(new KeyComparator(List.of(PaimonType.of(TypeRoot.INT), PaimonType.of(TypeRoot.INT))).singleIntegralKey());
  }
}
