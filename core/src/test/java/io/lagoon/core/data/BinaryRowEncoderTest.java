package io.lagoon.core.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** The reusing encoder writes the same bytes as a fresh encoding, whatever it encoded before. */
class BinaryRowEncoderTest {
  private static final List<PaimonType> TYPES = List.of(
      PaimonType.withLength(TypeRoot.VARCHAR, Integer.MAX_VALUE), PaimonType.of(TypeRoot.BIGINT),
      PaimonType.decimal(30, 4), PaimonType.timestamp(6, false),
      PaimonType.withLength(TypeRoot.VARBINARY, Integer.MAX_VALUE), PaimonType.of(TypeRoot.INT));

  @Test
  void reusedBufferEncodesLikeAFreshRowAtAnyPositions() {
    Random rnd = new Random(3);
    // The key fields sit at positions 5, 1, 3, 0, 4, 2 of a wider row.
    int[] positions = {5, 1, 3, 0, 4, 2};
    BinaryRowEncoder encoder = new BinaryRowEncoder(TYPES, positions);
    for (int round = 0; round < 500; round++) {
      Object[] key = {
          rnd.nextInt(4) == 0 ? null : UTF8String.fromString("k".repeat(rnd.nextInt(30))),
          rnd.nextInt(4) == 0 ? null : rnd.nextLong(),
          rnd.nextInt(4) == 0 ? null : Decimal.apply(new java.math.BigDecimal(rnd.nextLong() + ".1234")),
          rnd.nextInt(4) == 0 ? null : rnd.nextLong() / 1000,
          rnd.nextInt(4) == 0 ? null : new byte[rnd.nextInt(20)],
          rnd.nextInt(4) == 0 ? null : rnd.nextInt()};
      Object[] wide = new Object[6];
      for (int i = 0; i < positions.length; i++) wide[positions[i]] = key[i];
      byte[] expected = BinaryRowWriter.write(new GenericInternalRow(key), TYPES);
      int size = encoder.encode(new GenericInternalRow(wide), (byte) 0);
      assertArrayEquals(expected, Arrays.copyOf(encoder.buffer(), size), "round " + round);
      assertEquals(BinaryRows.hash(expected), encoder.hash(new GenericInternalRow(wide)), "round " + round);
    }
  }
}
