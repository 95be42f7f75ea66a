package io.lagoon.core.data;

import static org.junit.jupiter.api.Assertions.*;

import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeJson;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** Hashes and buckets; expected values are Paimon 1.3.1's {@code BinaryRow.hashCode()} of the same rows. */
class MurmurHashTest {
  static List<PaimonType> types(String... s) {
    List<PaimonType> out = new ArrayList<>();
    for (String x : s) out.add(TypeJson.parseAtomic(x));
    return out;
  }

  static int hash(List<PaimonType> ty, Object... values) {
    return BinaryRows.hash(new GenericInternalRow(values), ty);
  }

  @Test
  void intKeys() {
    int[] keys = {0, 1, 2, 3, 4, 5, 6, 7, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 19723};
    int[] paimon = {-300363099, 1465514398, 1340390384, -771300025, 1447522506, 260196596, 842153448, -348168691,
        1133687267, 916225219, -1125657321, -1439008885};
    for (int i = 0; i < keys.length; i++) {
      assertEquals(paimon[i], hash(types("INT"), keys[i]), "hash of INT " + keys[i]);
    }
  }

  @Test
  void otherKeyShapes() {
    assertEquals(1623112748, hash(types("BIGINT"), 1_000_000_000_001L));
    assertEquals(-1431907323, hash(types("STRING"), UTF8String.fromString("abcdefg")));
    assertEquals(352247557, hash(types("STRING"), UTF8String.fromString("abcdefghijklmnopqrst")));
    assertEquals(1451813470, hash(types("STRING", "INT"), UTF8String.fromString("hello, world!"), 42));
    assertEquals(-346684879, hash(types("TIMESTAMP(3)"), 1_704_164_646_123_456L));
    assertEquals(744019759, hash(types("TIMESTAMP(6)"), 1_704_164_646_123_456L));
    assertEquals(1236894319, hash(types("TIMESTAMP(6)"), -1L));
    assertEquals(1973614299, hash(types("TIMESTAMP(9)"), -1001L));
    assertEquals(1762644069, hash(types("DECIMAL(38, 10)"),
        Decimal.apply(new BigDecimal("-12345678901234567890.0123456789"), 38, 10)));
    assertEquals(-7349179, hash(types("DECIMAL(10, 2)"), Decimal.apply(new BigDecimal("-3.10"), 10, 2)));
    assertEquals(-1380280760, hash(types("DECIMAL(38, 10)"), (Object) null));
    assertEquals(-1695469814, hash(types("TIMESTAMP(6)", "STRING"), null, UTF8String.fromString("0123456789")));
    assertEquals(-269641815, hash(types("BOOLEAN", "TINYINT", "SMALLINT", "FLOAT", "DOUBLE", "DATE"),
        true, (byte) -7, (short) 300, -0.5f, Math.PI, -1));
    assertEquals(-171399545, hash(types("BYTES"), (Object) new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9}));
    assertEquals(-1670924195, BinaryRows.hash(new byte[8]), "empty row");
  }

  @Test
  void hashOfRawBytesMatchesRowHash() {
    byte[] b = HexFormat.of().parseHex("00000000000000000b4d000000000000");
    assertEquals(-1439008885, MurmurHash.hashBytesByWords(b, 0, b.length));
    assertThrows(IllegalArgumentException.class, () -> MurmurHash.hashBytesByWords(b, 0, 6));
  }

  @Test
  void bucketIsAbsOfTruncatingRemainder() {
    assertEquals(1, BucketFunction.bucket(-300363099, 2));
    assertEquals(0, BucketFunction.bucket(1465514398, 2));
    assertEquals(Math.abs(Integer.MIN_VALUE % 7), BucketFunction.bucket(Integer.MIN_VALUE, 7));
    assertEquals(0, BucketFunction.bucket(12345, 1));
    assertThrows(IllegalArgumentException.class, () -> BucketFunction.bucket(1, 0));
    // ids 1,2,4,5,6 -> bucket 0 and 3,7 -> bucket 1 with bucket=2 (see the pk_dv fixture test too)
    int[] expected = {1, 0, 0, 1, 0, 0, 0, 1};
    for (int id = 0; id <= 7; id++) {
      assertEquals(expected[id], BucketFunction.bucket(new GenericInternalRow(new Object[] {id}), types("INT NOT NULL"), 2));
    }
  }
}
