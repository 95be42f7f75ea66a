package io.lagoon.core.data;

import static org.junit.jupiter.api.Assertions.*;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeJson;
import io.lagoon.core.types.TypeRoot;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * Round trips and layout facts of the BinaryRow codec. The hex literals were produced by Paimon
 * 1.3.1's own writers ({@code InternalRowSerializer.toBinaryRow} + {@code serializeBinaryRow});
 * integration-tests' BinaryRowGoldenTest checks the codec against the live Paimon classes.
 */
class BinaryRowsTest {
  private static final HexFormat HEX = HexFormat.of();

  static PaimonType t(String s) {
    return TypeJson.parseAtomic(s);
  }

  static List<PaimonType> types(String... s) {
    List<PaimonType> out = new ArrayList<>();
    for (String x : s) out.add(t(x));
    return out;
  }

  static InternalRow row(Object... values) {
    return new GenericInternalRow(values);
  }

  static UTF8String str(String s) {
    return UTF8String.fromString(s);
  }

  static Decimal dec(String v, int p, int s) {
    return Decimal.apply(new BigDecimal(v), p, s);
  }

  /** Encodes, checks the size, decodes and compares every field. */
  static byte[] roundTrip(List<PaimonType> types, Object... values) {
    byte[] bytes = BinaryRows.toBytes(row(values), types);
    assertEquals(0, bytes.length % 8, "row size is a multiple of 8");
    assertEquals(0, bytes[0], "RowKind +I");
    InternalRow back = BinaryRows.fromBytes(bytes, types.size(), types);
    assertEquals(types.size(), back.numFields());
    for (int i = 0; i < values.length; i++) {
      assertValueEquals(values[i], back.isNullAt(i) ? null : ((GenericInternalRow) back).genericGet(i), types.get(i) + " field " + i);
    }
    byte[] serialized = BinaryRows.serialize(row(values), types);
    assertEquals(types.size(), BinaryRows.arity(serialized));
    assertArrayEquals(bytes, BinaryRows.rowBytes(serialized));
    InternalRow back2 = BinaryRows.deserialize(serialized, types);
    assertArrayEquals(bytes, BinaryRows.toBytes(back2, types), "re-encoding the decoded row gives the same bytes");
    return bytes;
  }

  static void assertValueEquals(Object expected, Object actual, String what) {
    if (expected instanceof byte[]) {
      assertArrayEquals((byte[]) expected, (byte[]) actual, what);
    } else {
      assertEquals(expected, actual, what);
    }
  }

  static String serializedHex(List<PaimonType> types, Object... values) {
    return HEX.formatHex(BinaryRows.serialize(row(values), types));
  }

  @Test
  void everyPrimitiveRoundTrips() {
    roundTrip(types("BOOLEAN"), true);
    roundTrip(types("BOOLEAN"), false);
    roundTrip(types("TINYINT"), (byte) -128);
    roundTrip(types("TINYINT"), (byte) 127);
    roundTrip(types("SMALLINT"), (short) -32768);
    roundTrip(types("SMALLINT"), (short) 32767);
    roundTrip(types("INT"), Integer.MIN_VALUE);
    roundTrip(types("INT"), Integer.MAX_VALUE);
    roundTrip(types("BIGINT"), Long.MIN_VALUE);
    roundTrip(types("BIGINT"), Long.MAX_VALUE);
    roundTrip(types("FLOAT"), -0.0f);
    roundTrip(types("FLOAT"), Float.NaN);
    roundTrip(types("FLOAT"), Float.MAX_VALUE);
    roundTrip(types("DOUBLE"), Double.NEGATIVE_INFINITY);
    roundTrip(types("DOUBLE"), Double.MIN_VALUE);
    roundTrip(types("DATE"), -719162);
    roundTrip(types("DATE"), 19723);
    roundTrip(types("TIME(3)"), 86_399_999);
    roundTrip(types("TIME"), 0);
  }

  @Test
  void nullsOfEveryTypeRoundTrip() {
    List<PaimonType> all = types("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE",
        "DECIMAL(10, 2)", "DECIMAL(38, 10)", "CHAR(3)", "VARCHAR(10)", "STRING", "BINARY(2)", "VARBINARY(9)",
        "BYTES", "DATE", "TIME(0)", "TIMESTAMP(3)", "TIMESTAMP(6)", "TIMESTAMP(9)",
        "TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP(6) WITH LOCAL TIME ZONE");
    Object[] nulls = new Object[all.size()];
    byte[] bytes = roundTrip(all, nulls);
    // 8 bytes of bitset for 22 fields, 22 slots, then 16 (decimal 38) + 8 * 3 (wide timestamps) reserved.
    assertEquals(8 + 22 * 8 + 16 + 24, bytes.length);
    for (int i = 0; i < all.size(); i++) {
      assertTrue(BinaryRows.fromBytes(bytes, all.size(), all).isNullAt(i));
    }
  }

  @Test
  void stringsInlineUpToSevenBytesAndPadLongerOnes() {
    for (int len : new int[] {0, 1, 6, 7, 8, 9, 15, 16, 17, 20, 100, 1000}) {
      String s = "x".repeat(len);
      byte[] bytes = roundTrip(types("STRING"), str(s));
      int expected = 16 + (len <= 7 ? 0 : BinaryRowLayout.roundToWord(len));
      assertEquals(expected, bytes.length, "size for length " + len);
      if (len <= 7) assertEquals((byte) (0x80 | len), bytes[15], "inline marker for length " + len);
    }
    roundTrip(types("STRING", "VARCHAR(100)", "CHAR(4)"), str("héllo wörld ✓ 日本"), str("é".repeat(4)), str("ab  "));
    roundTrip(types("BYTES", "BINARY(3)", "VARBINARY(100)"), new byte[0], new byte[] {-1, 0, 1}, new byte[64]);
    assertEquals("00000001" + "0000000000000000" + "6162636465666787", serializedHex(types("STRING"), str("abcdefg")));
    assertEquals("00000001" + "0000000000000000" + "14000000" + "10000000" + "6162636465666768696a6b6c6d6e6f7071727374" + "00000000",
        serializedHex(types("STRING"), str("abcdefghijklmnopqrst")));
    assertEquals("00000001" + "0000000000000000" + "0000000000000080", serializedHex(types("STRING"), str("")));
    assertEquals("00000001" + "0000000000000000" + "09000000" + "10000000" + "010203040506070809" + "00000000000000",
        serializedHex(types("BYTES"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9}));
  }

  @Test
  void compactAndWideDecimals() {
    roundTrip(types("DECIMAL(10, 2)"), dec("-3.10", 10, 2));
    roundTrip(types("DECIMAL(18, 0)"), dec("999999999999999999", 18, 0));
    roundTrip(types("DECIMAL(18, 18)"), dec("-0.999999999999999999", 18, 18));
    roundTrip(types("DECIMAL(19, 0)"), dec("9999999999999999999", 19, 0));
    roundTrip(types("DECIMAL(38, 0)"), dec("99999999999999999999999999999999999999", 38, 0));
    roundTrip(types("DECIMAL(38, 0)"), dec("-99999999999999999999999999999999999999", 38, 0));
    roundTrip(types("DECIMAL(38, 10)"), dec("0", 38, 10));
    roundTrip(types("DECIMAL(38, 10)"), dec("-0.0000000001", 38, 10));
    roundTrip(types("DECIMAL(38, 10)", "DECIMAL(38, 10)", "STRING"), dec("1", 38, 10), null, str("after-the-decimals"));
    assertEquals("00000001" + "0000000000000000" + "cafeffffffffffff", serializedHex(types("DECIMAL(10, 2)"), dec("-3.10", 10, 2)));
    // Wide decimal: the big-endian two's-complement unscaled bytes at the START of a 16-byte area.
    assertEquals("00000001" + "0000000000000000" + "0d000000" + "10000000" + "fe7116f0093c8c1f11f3fb2aeb" + "000000",
        serializedHex(types("DECIMAL(38, 10)"), dec("-12345678901234567890.0123456789", 38, 10)));
    // Null wide decimal: null bit, slot = offset << 32 with length 0, 16 zero bytes still reserved.
    assertEquals("00000001" + "0001000000000000" + "00000000" + "10000000" + "00".repeat(16),
        serializedHex(types("DECIMAL(38, 10)"), (Object) null));
  }

  @Test
  void decimalsAreBroughtToTheTypeScale() {
    List<PaimonType> ty = types("DECIMAL(10, 2)", "DECIMAL(20, 4)");
    byte[] bytes = BinaryRows.toBytes(row(Decimal.apply(new BigDecimal("1.5")), Decimal.apply(new BigDecimal("2.12345"))), ty);
    InternalRow back = BinaryRows.fromBytes(bytes, 2, ty);
    assertEquals(new BigDecimal("1.50"), back.getDecimal(0, 10, 2).toJavaBigDecimal());
    assertEquals(new BigDecimal("2.1235"), back.getDecimal(1, 20, 4).toJavaBigDecimal());
    assertThrows(IllegalArgumentException.class,
        () -> BinaryRows.toBytes(row(Decimal.apply(new BigDecimal("123456789.1"))), types("DECIMAL(5, 1)")));
  }

  @Test
  void timestampPrecisionDecidesLayout() {
    long micros = 1_704_164_646_123_456L; // 2024-01-02T03:04:06.123456
    // p <= 3: millis in the slot; the sub-millisecond part is dropped.
    assertEquals("00000001" + "0000000000000000" + "ebdc20c88c010000", serializedHex(types("TIMESTAMP(3)"), micros));
    assertEquals(1_704_164_646_123_000L, BinaryRows.fromBytes(BinaryRows.toBytes(row(micros), types("TIMESTAMP(3)")), 1,
        types("TIMESTAMP(3)")).getLong(0));
    // p > 3: slot = offset << 32 | nanoOfMilli, millis in the variable part.
    assertEquals("00000001" + "0000000000000000" + "40f50600" + "10000000" + "ebdc20c88c010000",
        serializedHex(types("TIMESTAMP(6)"), micros));
    roundTrip(types("TIMESTAMP(6)"), micros);
    roundTrip(types("TIMESTAMP(9)"), micros);
    roundTrip(types("TIMESTAMP(6) WITH LOCAL TIME ZONE"), micros);
    roundTrip(types("TIMESTAMP(3)"), 1_704_164_646_123_000L);
    assertNotEquals(BinaryRows.hash(row(micros), types("TIMESTAMP(3)")), BinaryRows.hash(row(micros), types("TIMESTAMP(6)")));
  }

  @Test
  void timestampsBefore1970() {
    // -1 micro = millis -1, nanoOfMilli 999000.
    assertEquals("00000001" + "0000000000000000" + "583e0f00" + "10000000" + "ffffffffffffffff",
        serializedHex(types("TIMESTAMP(6)"), -1L));
    assertEquals("00000001" + "0000000000000000" + "583e0f00" + "10000000" + "feffffffffffffff",
        serializedHex(types("TIMESTAMP(9)"), -1001L));
    for (long m : new long[] {-1L, -999L, -1000L, -1001L, -86_400_000_000L - 1, -62_135_596_800_000_000L, Long.MIN_VALUE / 1000 * 1000}) {
      roundTrip(types("TIMESTAMP(6)", "TIMESTAMP(9) WITH LOCAL TIME ZONE"), m, m);
    }
    // p <= 3 rounds toward negative infinity (floorDiv), as Paimon's Timestamp.fromMicros does.
    assertEquals("00000001" + "0000000000000000" + "ffffffffffffffff", serializedHex(types("TIMESTAMP(3)"), -1L));
    assertEquals(-1000L, BinaryRows.fromBytes(BinaryRows.toBytes(row(-1L), types("TIMESTAMP(3)")), 1, types("TIMESTAMP(3)")).getLong(0));
    assertEquals(-2000L, BinaryRows.fromBytes(BinaryRows.toBytes(row(-1001L), types("TIMESTAMP(3)")), 1, types("TIMESTAMP(3)")).getLong(0));
  }

  @Test
  void nullWideTimestampReservesItsMillisBeforeLaterVariableFields() {
    assertEquals("00000002" + "0001000000000000" + "00000000" + "18000000" + "0a000000" + "20000000"
        + "0000000000000000" + "30313233343536373839000000000000",
        serializedHex(types("TIMESTAMP(6)", "STRING"), null, str("0123456789")));
  }

  @Test
  void primitivesAreLittleEndianInTheirSlots() {
    assertEquals("00000006" + "0000000000000000" + "0100000000000000" + "f900000000000000" + "2c01000000000000"
            + "000000bf00000000" + "182d4454fb210940" + "ffffffff00000000",
        serializedHex(types("BOOLEAN", "TINYINT", "SMALLINT", "FLOAT", "DOUBLE", "DATE"),
            true, (byte) -7, (short) 300, -0.5f, Math.PI, -1));
    assertEquals("00000001" + "0000000000000000" + "0110a5d4e8000000", serializedHex(types("BIGINT"), 1_000_000_000_001L));
  }

  @Test
  void floatsKeepTheirRawBits() {
    float oddNaN = Float.intBitsToFloat(0x7fdb9b80);
    double oddDoubleNaN = Double.longBitsToDouble(0x7ff0000000000001L);
    byte[] b = BinaryRows.toBytes(row(oddNaN, oddDoubleNaN, -0.0f, -0.0d), types("FLOAT", "DOUBLE", "FLOAT", "DOUBLE"));
    assertEquals("809bdb7f00000000", HEX.formatHex(b, 8, 16));
    assertEquals("010000000000f07f", HEX.formatHex(b, 16, 24));
    assertEquals("0000008000000000", HEX.formatHex(b, 24, 32));
    assertEquals("0000000000000080", HEX.formatHex(b, 32, 40));
    InternalRow back = BinaryRows.fromBytes(b, 4, types("FLOAT", "DOUBLE", "FLOAT", "DOUBLE"));
    assertEquals(0x7fdb9b80, Float.floatToRawIntBits(back.getFloat(0)));
    assertEquals(0x7ff0000000000001L, Double.doubleToRawLongBits(back.getDouble(1)));
  }

  @Test
  void emptyRowIsEightZeroBytes() {
    assertEquals("00000000" + "0000000000000000", serializedHex(List.of()));
    assertEquals(0, BinaryRows.deserialize(BinaryRows.serialize(row(), List.of()), List.of()).numFields());
    assertEquals(8, BinaryRowLayout.bitsetBytes(0));
    assertEquals(8, BinaryRowLayout.bitsetBytes(56));
    assertEquals(16, BinaryRowLayout.bitsetBytes(57));
    assertEquals(16, BinaryRowLayout.bitsetBytes(120));
    assertEquals(24, BinaryRowLayout.bitsetBytes(121));
  }

  @Test
  void nullBitsCrossBitsetWords() {
    int arity = 130;
    List<PaimonType> ty = new ArrayList<>();
    Object[] values = new Object[arity];
    for (int i = 0; i < arity; i++) {
      ty.add(PaimonType.of(TypeRoot.INT));
      values[i] = i % 3 == 0 ? null : i;
    }
    byte[] bytes = roundTrip(ty, values);
    assertEquals(24 + arity * 8, bytes.length);
    // field 0 null -> bit 8 -> byte 1 bit 0; field 57 null -> bit 65 -> byte 8 bit 1
    assertEquals(0x01, bytes[1] & 0x01);
    assertEquals(0x02, bytes[8] & 0x02);
  }

  @Test
  void rowKindByte() {
    byte[] b = BinaryRowWriter.write(row(5), types("INT"), (byte) 3);
    assertEquals(3, b[0]);
    assertEquals(3, BinaryRowReader.rowKind(b, 0));
    assertEquals(5, BinaryRows.fromBytes(b, 1, types("INT")).getInt(0));
  }

  @Test
  void shorterSerializedRowReadsMissingTrailingFieldsAsNull() {
    byte[] old = BinaryRows.serialize(row(7, str("seven")), types("INT", "STRING"));
    assertEquals(2, BinaryRows.arity(old));
    InternalRow r = BinaryRows.deserialize(old, types("INT", "STRING", "DECIMAL(38, 2)", "TIMESTAMP(6)"));
    assertEquals(4, r.numFields());
    assertEquals(7, r.getInt(0));
    assertEquals("seven", r.getUTF8String(1).toString());
    assertTrue(r.isNullAt(2));
    assertTrue(r.isNullAt(3));
    InternalRow fewer = BinaryRows.deserialize(old, types("INT"));
    assertEquals(1, fewer.numFields());
    assertEquals(7, fewer.getInt(0));
  }

  @Test
  void nestedValuesAreRejectedButNestedNullsAreFine() {
    List<PaimonType> ty = List.of(PaimonType.of(TypeRoot.INT), PaimonType.array(PaimonType.of(TypeRoot.INT)),
        PaimonType.row(List.of(new DataField(9, "x", PaimonType.of(TypeRoot.INT)))));
    byte[] bytes = BinaryRows.toBytes(row(1, null, null), ty);
    InternalRow back = BinaryRows.fromBytes(bytes, 3, ty);
    assertEquals(1, back.getInt(0));
    assertTrue(back.isNullAt(1));
    assertTrue(back.isNullAt(2));
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
        () -> BinaryRows.toBytes(row(1, new org.apache.spark.sql.catalyst.util.GenericArrayData(new Object[] {1}), null), ty));
    assertTrue(e.getMessage().contains("ARRAY"), e.getMessage());
  }

  @Test
  void rejectsMalformedInput() {
    assertThrows(IllegalArgumentException.class, () -> BinaryRows.arity(new byte[3]));
    assertThrows(IllegalArgumentException.class, () -> BinaryRows.deserialize(new byte[] {0, 0, 0, 2, 0, 0, 0, 0}, types("INT", "INT")));
    assertThrows(IllegalArgumentException.class, () -> BinaryRows.toBytes(row(1), types("INT", "INT")));
  }

  @Test
  void randomRowsRoundTrip() {
    List<PaimonType> ty = types("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE",
        "DECIMAL(9, 3)", "DECIMAL(18, 2)", "DECIMAL(19, 4)", "DECIMAL(38, 18)", "STRING", "BYTES", "DATE",
        "TIMESTAMP(0)", "TIMESTAMP(3)", "TIMESTAMP(6)", "TIMESTAMP(9) WITH LOCAL TIME ZONE");
    Random rnd = new Random(20240102L);
    for (int n = 0; n < 2000; n++) {
      Object[] v = new Object[ty.size()];
      for (int i = 0; i < ty.size(); i++) {
        if (rnd.nextInt(5) == 0) continue;
        PaimonType t = ty.get(i);
        switch (t.root()) {
          case BOOLEAN: v[i] = rnd.nextBoolean(); break;
          case TINYINT: v[i] = (byte) rnd.nextInt(); break;
          case SMALLINT: v[i] = (short) rnd.nextInt(); break;
          case INT: case DATE: v[i] = rnd.nextInt(); break;
          case BIGINT: v[i] = rnd.nextLong(); break;
          case FLOAT: v[i] = rnd.nextFloat() * rnd.nextInt(); break;
          case DOUBLE: v[i] = rnd.nextGaussian() * 1e10; break;
          case DECIMAL: {
            java.math.BigInteger unscaled = new java.math.BigInteger(t.precision() * 3, rnd);
            while (unscaled.toString().length() > t.precision()) unscaled = unscaled.shiftRight(1);
            if (rnd.nextBoolean()) unscaled = unscaled.negate();
            v[i] = Decimal.apply(new BigDecimal(unscaled, t.scale()), t.precision(), t.scale());
            break;
          }
          case VARCHAR: {
            StringBuilder sb = new StringBuilder();
            int len = rnd.nextInt(30);
            for (int k = 0; k < len; k++) sb.append((char) (rnd.nextBoolean() ? 'a' + rnd.nextInt(26) : 0xe9 + rnd.nextInt(50)));
            v[i] = str(sb.toString());
            break;
          }
          case VARBINARY: {
            byte[] b = new byte[rnd.nextInt(25)];
            rnd.nextBytes(b);
            v[i] = b;
            break;
          }
          default: {
            long micros = rnd.nextLong() / 4;
            if (t.precision() <= 3) micros = Math.floorDiv(micros, 1000L) * 1000L;
            if (t.precision() == 0) micros = Math.floorDiv(micros, 1000L) * 1000L;
            v[i] = micros;
          }
        }
      }
      roundTrip(ty, v);
    }
  }

  @Test
  void utf8IsStoredVerbatim() {
    String s = "ünïcødé";
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    byte[] bytes = roundTrip(types("STRING"), str(s));
    assertArrayEquals(utf8, Arrays.copyOfRange(bytes, 16, 16 + utf8.length));
  }
}
