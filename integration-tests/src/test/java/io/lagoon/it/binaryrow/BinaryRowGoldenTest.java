package io.lagoon.it.binaryrow;

import static org.junit.jupiter.api.Assertions.*;

import io.lagoon.core.data.BinaryRowWriter;
import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.data.BucketFunction;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeJson;
import io.lagoon.core.types.TypeRoot;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.paimon.bucket.DefaultBucketFunction;
import org.apache.paimon.codegen.CodeGenUtils;
import org.apache.paimon.codegen.Projection;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.sink.FixedBucketRowKeyExtractor;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.SerializationUtils;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Golden test of Lagoon's BinaryRow codec, hash and bucket function against real Paimon 1.3.1
 * (test scope only, as an oracle). Every row is built three ways in Paimon — by hand with
 * {@code BinaryRowWriter} (nulls written as Paimon's writers write them), through
 * {@code InternalRowSerializer.toBinaryRow} (how partitions and stats rows are made) and through a
 * generated {@code Projection} (how keys and bucket keys are made) — and must equal Lagoon's bytes,
 * hash and bucket exactly; Lagoon must also decode Paimon's bytes and Paimon must decode Lagoon's.
 * Skipped in the paimon-0.9 Surefire execution ({@link RequiresPaimon131}).
 */
@RequiresPaimon131
class BinaryRowGoldenTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final int[] BUCKET_COUNTS = {1, 2, 3, 4, 5, 7, 8, 10, 16, 31, 100, 128, 1000, 1 << 20, Integer.MAX_VALUE};

  /** One column type, described by its Paimon type string, with the values to try (Catalyst form). */
  private static final class Col {
    final PaimonType lagoon;
    final DataType paimon;
    final List<Object> values;

    Col(String type, Object... values) {
      this.lagoon = TypeJson.parseAtomic(type);
      this.paimon = DataTypeJsonParser.parseAtomicTypeSQLString(lagoon.atomicString());
      this.values = new ArrayList<>(Arrays.asList(values));
      if (lagoon.nullable()) this.values.add(null); // Paimon rejects nulls in NOT NULL fields
    }

    @Override
    public String toString() { return lagoon.toString(); }
  }

  private static UTF8String s(String v) { return UTF8String.fromString(v); }

  private static Decimal d(String v, int p, int sc) { return Decimal.apply(new BigDecimal(v), p, sc); }

  private static final Object[] STRINGS = {s(""), s("a"), s("abcdef"), s("abcdefg"), s("abcdefgh"), s("abcdefghi"),
      s("abcdefghijklmnopqrst"), s("é".repeat(3)), s("é".repeat(4)), s("日本語"), s("x".repeat(100)), s("0123456789abcdef")};
  private static final long[] MICROS = {0L, 1L, -1L, 999L, -999L, 1000L, -1000L, -1001L, 1_704_164_646_123_456L,
      -1_704_164_646_123_456L, 253_402_300_799_999_999L, -62_135_596_800_000_000L, 86_400_000_000L - 1};

  private static Object[] micros() { return Arrays.stream(MICROS).boxed().toArray(); }

  private static Object[] bytesValues() {
    return new Object[] {new byte[0], new byte[] {0}, new byte[] {-1, 0, 1, 2, 3, 4, 5}, new byte[] {1, 2, 3, 4, 5, 6, 7, 8},
        new byte[] {9, 8, 7, 6, 5, 4, 3, 2, 1}, new byte[20], new byte[64]};
  }

  static List<Col> columns() {
    return List.of(
        new Col("BOOLEAN", true, false),
        new Col("TINYINT", (byte) 0, (byte) 1, (byte) -1, Byte.MIN_VALUE, Byte.MAX_VALUE),
        new Col("SMALLINT", (short) 0, (short) -2, (short) 300, Short.MIN_VALUE, Short.MAX_VALUE),
        new Col("INT", 0, 1, -1, 42, 19723, Integer.MIN_VALUE, Integer.MAX_VALUE),
        new Col("INT NOT NULL", 7),
        new Col("BIGINT", 0L, -1L, 1_000_000_000_001L, Long.MIN_VALUE, Long.MAX_VALUE),
        new Col("FLOAT", 0f, -0f, 1.5f, -0.5f, Float.MIN_VALUE, Float.MAX_VALUE, Float.NaN, Float.NEGATIVE_INFINITY),
        new Col("DOUBLE", 0d, -0d, Math.PI, -1e300, Double.MIN_VALUE, Double.NaN, Double.POSITIVE_INFINITY),
        new Col("DECIMAL(1, 0)", d("0", 1, 0), d("9", 1, 0), d("-9", 1, 0)),
        new Col("DECIMAL(10, 2)", d("0.00", 10, 2), d("-3.10", 10, 2), d("22.20", 10, 2), d("99999999.99", 10, 2)),
        new Col("DECIMAL(18, 4)", d("99999999999999.9999", 18, 4), d("-99999999999999.9999", 18, 4), d("0.0001", 18, 4)),
        new Col("DECIMAL(19, 0)", d("0", 19, 0), d("9999999999999999999", 19, 0), d("-9999999999999999999", 19, 0),
            d("9223372036854775807", 19, 0), d("-9223372036854775808", 19, 0), d("127", 19, 0), d("128", 19, 0), d("-128", 19, 0)),
        new Col("DECIMAL(20, 5)", d("123456789012345.12345", 20, 5), d("-0.00001", 20, 5)),
        new Col("DECIMAL(38, 10)", d("0", 38, 10), d("1", 38, 10), d("-1", 38, 10), d("12345.6789", 38, 10),
            d("-12345678901234567890.0123456789", 38, 10), d("9999999999999999999999999999.9999999999", 38, 10),
            d("-9999999999999999999999999999.9999999999", 38, 10), d("0.0000000001", 38, 10)),
        new Col("DECIMAL(38, 0)", d("99999999999999999999999999999999999999", 38, 0),
            d("-99999999999999999999999999999999999999", 38, 0), d("-1", 38, 0)),
        new Col("CHAR(10)", s(""), s("abc"), s("abcdefg"), s("abcdefgh"), s("abcdefghij")),
        new Col("VARCHAR(100)", STRINGS),
        new Col("STRING", STRINGS),
        new Col("BINARY(8)", bytesValues()),
        new Col("VARBINARY(64)", bytesValues()),
        new Col("BYTES", bytesValues()),
        new Col("DATE", 0, 19723, 19724, -1, -719162, 2932896),
        new Col("TIME(0)", 0, 3_600_000, 86_399_000),
        new Col("TIME(3)", 0, 1, 86_399_999),
        new Col("TIMESTAMP(0)", millisOnly()),
        new Col("TIMESTAMP(3)", micros()),
        new Col("TIMESTAMP(6)", micros()),
        new Col("TIMESTAMP(9)", micros()),
        new Col("TIMESTAMP(3) WITH LOCAL TIME ZONE", micros()),
        new Col("TIMESTAMP(6) WITH LOCAL TIME ZONE", micros()));
  }

  private static Object[] millisOnly() {
    return Arrays.stream(MICROS).map(m -> Math.floorDiv(m, 1_000_000L) * 1_000_000L).boxed().toArray();
  }

  // ---- conversions between the Catalyst values Lagoon uses and Paimon's internal values ----

  private static Object toPaimon(Object v, PaimonType t) {
    if (v == null) return null;
    switch (t.root()) {
      case DECIMAL: return org.apache.paimon.data.Decimal.fromBigDecimal(((Decimal) v).toJavaBigDecimal(), t.precision(), t.scale());
      case CHAR: case VARCHAR: return BinaryString.fromBytes(((UTF8String) v).getBytes());
      case TIMESTAMP: case TIMESTAMP_LTZ: return Timestamp.fromMicros((Long) v);
      default: return v;
    }
  }

  /** What Lagoon should decode from a row holding {@code v}: TIMESTAMP(p<=3) drops sub-millis. */
  private static Object expectedDecoded(Object v, PaimonType t) {
    if (v != null && (t.root() == TypeRoot.TIMESTAMP || t.root() == TypeRoot.TIMESTAMP_LTZ) && t.precision() <= 3) {
      return Math.floorDiv((Long) v, 1000L) * 1000L;
    }
    return v;
  }

  // ---- Paimon's three ways of building a BinaryRow ----

  private static BinaryRow paimonByHand(List<Object> paimonValues, List<DataType> types) {
    BinaryRow row = new BinaryRow(types.size());
    org.apache.paimon.data.BinaryRowWriter w = new org.apache.paimon.data.BinaryRowWriter(row);
    for (int i = 0; i < types.size(); i++) {
      DataType t = types.get(i);
      Object v = paimonValues.get(i);
      switch (t.getTypeRoot()) {
        case DECIMAL: {
          int p = ((org.apache.paimon.types.DecimalType) t).getPrecision();
          if (v == null && org.apache.paimon.data.Decimal.isCompact(p)) w.setNullAt(i);
          else w.writeDecimal(i, (org.apache.paimon.data.Decimal) v, p); // wide null: Paimon's null setter
          continue;
        }
        case TIMESTAMP_WITHOUT_TIME_ZONE: case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
          int p = timestampPrecision(t);
          if (v == null && Timestamp.isCompact(p)) w.setNullAt(i);
          else w.writeTimestamp(i, (Timestamp) v, p);
          continue;
        }
        default:
      }
      if (v == null) {
        w.setNullAt(i);
        continue;
      }
      switch (t.getTypeRoot()) {
        case BOOLEAN: w.writeBoolean(i, (Boolean) v); break;
        case TINYINT: w.writeByte(i, (Byte) v); break;
        case SMALLINT: w.writeShort(i, (Short) v); break;
        case INTEGER: case DATE: case TIME_WITHOUT_TIME_ZONE: w.writeInt(i, (Integer) v); break;
        case BIGINT: w.writeLong(i, (Long) v); break;
        case FLOAT: w.writeFloat(i, (Float) v); break;
        case DOUBLE: w.writeDouble(i, (Double) v); break;
        case CHAR: case VARCHAR: w.writeString(i, (BinaryString) v); break;
        case BINARY: case VARBINARY: w.writeBinary(i, (byte[]) v); break;
        default: throw new AssertionError("unexpected type " + t);
      }
    }
    w.complete();
    return row;
  }

  private static int timestampPrecision(DataType t) {
    return t instanceof org.apache.paimon.types.TimestampType
        ? ((org.apache.paimon.types.TimestampType) t).getPrecision()
        : ((org.apache.paimon.types.LocalZonedTimestampType) t).getPrecision();
  }

  private static BinaryRow paimonBySerializer(List<Object> paimonValues, List<DataType> types, RowKind kind) {
    GenericRow g = GenericRow.of(paimonValues.toArray());
    g.setRowKind(kind);
    return new InternalRowSerializer(types.toArray(new DataType[0])).toBinaryRow(g).copy();
  }

  private static BinaryRow paimonByProjection(List<Object> paimonValues, List<DataType> types) {
    Projection p = CodeGenUtils.newProjection(RowType.of(types.toArray(new DataType[0])),
        IntStream.range(0, types.size()).toArray());
    return p.apply(GenericRow.of(paimonValues.toArray())).copy();
  }

  /** Paimon 1.3's default bucket function (created here, not in a field: the class is absent from Paimon 0.9). */
  private static int paimonBucket(BinaryRow key, int numBuckets) {
    return new DefaultBucketFunction().bucket(key, numBuckets);
  }

  // ---- the check applied to every row ----

  private static void assertSameAsPaimon(List<Object> values, List<PaimonType> lagoonTypes) {
    List<DataType> paimonTypes = lagoonTypes.stream()
        .map(t -> DataTypeJsonParser.parseAtomicTypeSQLString(t.atomicString())).collect(Collectors.toList());
    List<Object> paimonValues = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) paimonValues.add(toPaimon(values.get(i), lagoonTypes.get(i)));
    InternalRow sparkRow = new GenericInternalRow(values.toArray());
    String what = lagoonTypes + " " + render(values);

    byte[] ours = BinaryRows.serialize(sparkRow, lagoonTypes);
    BinaryRow byHand = paimonByHand(paimonValues, paimonTypes);
    BinaryRow bySerializer = paimonBySerializer(paimonValues, paimonTypes, RowKind.INSERT);
    BinaryRow byProjection = paimonByProjection(paimonValues, paimonTypes);
    for (BinaryRow p : List.of(byHand, bySerializer, byProjection)) {
      byte[] theirs = SerializationUtils.serializeBinaryRow(p);
      assertEquals(HEX.formatHex(theirs), HEX.formatHex(ours), "bytes of " + what);
      assertEquals(p.hashCode(), BinaryRows.hash(sparkRow, lagoonTypes), "hash of " + what);
    }
    assertEquals(0, (ours.length - BinaryRows.ARITY_PREFIX_BYTES) % 8, "row size multiple of 8: " + what);
    for (int n : BUCKET_COUNTS) {
      assertEquals(paimonBucket(byProjection, n), BucketFunction.bucket(sparkRow, lagoonTypes, n),
          "bucket of " + what + " with " + n + " buckets");
    }

    // Lagoon decodes Paimon's bytes to the original values.
    InternalRow decoded = BinaryRows.deserialize(SerializationUtils.serializeBinaryRow(bySerializer), lagoonTypes);
    assertEquals(values.size(), decoded.numFields());
    for (int i = 0; i < values.size(); i++) {
      Object expected = expectedDecoded(values.get(i), lagoonTypes.get(i));
      Object actual = decoded.isNullAt(i) ? null : ((GenericInternalRow) decoded).genericGet(i);
      assertValue(expected, actual, "field " + i + " of " + what + " decoded by Lagoon");
    }
    // Paimon decodes Lagoon's bytes to the same values it wrote.
    BinaryRow fromOurs = SerializationUtils.deserializeBinaryRow(ours);
    assertEquals(RowKind.INSERT, fromOurs.getRowKind());
    for (int i = 0; i < values.size(); i++) {
      org.apache.paimon.data.InternalRow.FieldGetter getter = org.apache.paimon.data.InternalRow.createFieldGetter(paimonTypes.get(i), i);
      assertValue(getter.getFieldOrNull(byHand), getter.getFieldOrNull(fromOurs), "field " + i + " of " + what + " decoded by Paimon");
    }
  }

  private static void assertValue(Object expected, Object actual, String what) {
    if (expected instanceof byte[]) assertArrayEquals((byte[]) expected, (byte[]) actual, what);
    else assertEquals(expected, actual, what);
  }

  private static String render(List<Object> values) {
    return values.stream().map(v -> v instanceof byte[] ? Arrays.toString((byte[]) v) : String.valueOf(v))
        .collect(Collectors.joining(", ", "[", "]"));
  }

  // ---- tests ----

  @TestFactory
  Stream<DynamicTest> everyAtomicTypeAloneMatchesPaimon() {
    return columns().stream().map(c -> DynamicTest.dynamicTest(c.toString(), () -> {
      for (Object v : c.values) {
        List<Object> one = new ArrayList<>();
        one.add(v);
        assertSameAsPaimon(one, List.of(c.lagoon));
      }
    }));
  }

  /** Each type between variable-length neighbours, so offsets into the variable part are exercised. */
  @TestFactory
  Stream<DynamicTest> everyAtomicTypeAmongVariableLengthFieldsMatchesPaimon() {
    PaimonType str = TypeJson.parseAtomic("STRING");
    PaimonType wideDec = TypeJson.parseAtomic("DECIMAL(38, 10)");
    PaimonType wideTs = TypeJson.parseAtomic("TIMESTAMP(6)");
    return columns().stream().map(c -> DynamicTest.dynamicTest(c.toString(), () -> {
      List<PaimonType> types = List.of(str, c.lagoon, wideDec, c.lagoon, wideTs, str);
      for (int k = 0; k < c.values.size(); k++) {
        Object v = c.values.get(k);
        Object w = c.values.get((k + 1) % c.values.size());
        assertSameAsPaimon(Arrays.asList(s("leading long string"), v, k % 2 == 0 ? null : d("-1.5", 38, 10), w,
            k % 3 == 0 ? null : (Object) (-1_000_001L * k), k % 2 == 0 ? s("short") : s("trailing long string")), types);
      }
    }));
  }

  @Test
  void allTypesInOneRowMatchPaimon() {
    List<Col> cols = columns();
    List<PaimonType> types = cols.stream().map(c -> c.lagoon).collect(Collectors.toList());
    int rounds = cols.stream().mapToInt(c -> c.values.size()).max().orElseThrow();
    for (int k = 0; k < rounds; k++) {
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < cols.size(); i++) values.add(cols.get(i).values.get((k + i) % cols.get(i).values.size()));
      assertSameAsPaimon(values, types);
    }
    List<Object> nulls = new ArrayList<>();
    for (Col c : cols) nulls.add(c.lagoon.nullable() ? null : c.values.get(0));
    assertSameAsPaimon(nulls, types);
  }

  @Test
  void randomRowsMatchPaimon() {
    List<Col> cols = columns();
    List<PaimonType> types = cols.stream().map(c -> c.lagoon).collect(Collectors.toList());
    Random rnd = new Random(1_704_164_646L);
    for (int n = 0; n < 3000; n++) {
      List<Object> values = new ArrayList<>();
      for (Col c : cols) values.add(c.lagoon.nullable() && rnd.nextInt(4) == 0 ? null : randomValue(c.lagoon, rnd));
      assertSameAsPaimon(values, types);
    }
  }

  private static Object randomValue(PaimonType t, Random rnd) {
    switch (t.root()) {
      case BOOLEAN: return rnd.nextBoolean();
      case TINYINT: return (byte) rnd.nextInt();
      case SMALLINT: return (short) rnd.nextInt();
      case INT: return rnd.nextInt();
      case DATE: return rnd.nextInt(200_000) - 100_000;
      case TIME: return rnd.nextInt(86_400_000);
      case BIGINT: return rnd.nextLong();
      case FLOAT: return Float.intBitsToFloat(rnd.nextInt());
      case DOUBLE: return Double.longBitsToDouble(rnd.nextLong());
      case DECIMAL: {
        BigInteger unscaled = new BigInteger(rnd.nextInt(t.precision() * 3 + 1) + 1, rnd);
        while (unscaled.toString().length() > t.precision()) unscaled = unscaled.divide(BigInteger.TEN);
        if (rnd.nextBoolean()) unscaled = unscaled.negate();
        return Decimal.apply(new BigDecimal(unscaled, t.scale()), t.precision(), t.scale());
      }
      case CHAR: case VARCHAR: {
        int len = rnd.nextInt(4) == 0 ? rnd.nextInt(200) : rnd.nextInt(12);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < len; i++) {
          int kind = rnd.nextInt(10);
          sb.appendCodePoint(kind < 6 ? 'a' + rnd.nextInt(26) : kind < 9 ? 0xa0 + rnd.nextInt(0x700) : 0x1F600 + rnd.nextInt(50));
        }
        return s(sb.toString());
      }
      case BINARY: case VARBINARY: {
        byte[] b = new byte[rnd.nextInt(4) == 0 ? rnd.nextInt(100) : rnd.nextInt(12)];
        rnd.nextBytes(b);
        return b;
      }
      case TIMESTAMP: case TIMESTAMP_LTZ: {
        long m = (rnd.nextLong() % 400_000_000_000_000_000L);
        return t.precision() == 0 ? Math.floorDiv(m, 1_000_000L) * 1_000_000L : m;
      }
      default: throw new AssertionError(t);
    }
  }

  @Test
  void bucketsOfManyKeysMatchPaimon() {
    List<List<PaimonType>> keyShapes = List.of(
        List.of(TypeJson.parseAtomic("INT NOT NULL")),
        List.of(TypeJson.parseAtomic("BIGINT")),
        List.of(TypeJson.parseAtomic("STRING")),
        List.of(TypeJson.parseAtomic("STRING"), TypeJson.parseAtomic("INT")),
        List.of(TypeJson.parseAtomic("TIMESTAMP(3)")),
        List.of(TypeJson.parseAtomic("TIMESTAMP(6)")),
        List.of(TypeJson.parseAtomic("DECIMAL(38, 2)"), TypeJson.parseAtomic("DATE")));
    for (List<PaimonType> shape : keyShapes) {
      List<DataType> paimonTypes = shape.stream()
          .map(t -> DataTypeJsonParser.parseAtomicTypeSQLString(t.atomicString())).collect(Collectors.toList());
      Projection projection = CodeGenUtils.newProjection(RowType.of(paimonTypes.toArray(new DataType[0])),
          IntStream.range(0, shape.size()).toArray());
      for (int k = -2000; k <= 2000; k++) {
        List<Object> values = new ArrayList<>();
        for (PaimonType t : shape) values.add(keyValue(t, k));
        List<Object> paimonValues = new ArrayList<>();
        for (int i = 0; i < shape.size(); i++) paimonValues.add(toPaimon(values.get(i), shape.get(i)));
        BinaryRow key = projection.apply(GenericRow.of(paimonValues.toArray()));
        InternalRow sparkKey = new GenericInternalRow(values.toArray());
        assertEquals(key.hashCode(), BinaryRows.hash(sparkKey, shape), shape + " key " + k);
        for (int n : BUCKET_COUNTS) {
          assertEquals(paimonBucket(key, n), BucketFunction.bucket(sparkKey, shape, n), shape + " key " + k + " n=" + n);
        }
      }
    }
  }

  private static Object keyValue(PaimonType t, int k) {
    switch (t.root()) {
      case INT: case DATE: return k * 7919;
      case BIGINT: return 1_000_000_000_000L * k + k;
      case VARCHAR: return s("key-" + k + (k % 3 == 0 ? "-padding-to-go-long" : ""));
      case TIMESTAMP: return 1_704_164_646_123_456L + 1_000_001L * k;
      case DECIMAL: return Decimal.apply(new BigDecimal(BigInteger.valueOf(k).pow(5), 2), 38, 2);
      default: throw new AssertionError(t);
    }
  }

  /** End to end through Paimon's own writer-side key extraction (partition, trimmed PK, bucket). */
  @Test
  void fixedBucketRowKeyExtractorAgrees() {
    List<PaimonType> lagoon = List.of(TypeJson.parseAtomic("INT NOT NULL"), TypeJson.parseAtomic("STRING NOT NULL"),
        TypeJson.parseAtomic("TIMESTAMP(6)"), TypeJson.parseAtomic("DATE NOT NULL"), TypeJson.parseAtomic("DECIMAL(38, 10)"),
        TypeJson.parseAtomic("TIMESTAMP(3)"));
    String[] names = {"id", "name", "ts", "d", "amount", "ts3"};
    List<DataField> fields = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      fields.add(new DataField(i, names[i], DataTypeJsonParser.parseAtomicTypeSQLString(lagoon.get(i).atomicString())));
    }
    List<List<String>> primaryKeys = List.of(List.of("id", "name", "d"), List.of("id", "name", "d"), List.of(), List.of());
    List<Map<String, String>> optionSets = List.of(Map.of("bucket", "7"), Map.of("bucket", "5", "bucket-key", "name"),
        Map.of("bucket", "16", "bucket-key", "ts,amount"), Map.of("bucket", "3", "bucket-key", "ts3"));
    for (int c = 0; c < optionSets.size(); c++) {
      Map<String, String> options = optionSets.get(c);
      List<String> pk = primaryKeys.get(c);
      TableSchema schema = new TableSchema(0, fields, names.length - 1, List.of("d"), pk, options, "");
      FixedBucketRowKeyExtractor extractor = new FixedBucketRowKeyExtractor(schema);
      int numBuckets = Integer.parseInt(options.get("bucket"));
      Random rnd = new Random(7);
      for (int n = 0; n < 500; n++) {
        Object[] values = {rnd.nextInt(), s("n" + rnd.nextInt(1000) + (n % 2 == 0 ? "" : "-long-name")),
            n % 5 == 0 ? null : (Object) (rnd.nextLong() % 100_000_000_000_000_000L), 19000 + rnd.nextInt(1000),
            n % 7 == 0 ? null : Decimal.apply(new BigDecimal(new BigInteger(100, rnd), 10), 38, 10),
            rnd.nextLong() % 100_000_000_000_000_000L};
        Object[] paimonValues = new Object[values.length];
        for (int i = 0; i < values.length; i++) paimonValues[i] = toPaimon(values[i], lagoon.get(i));
        extractor.setRecord(GenericRow.of(paimonValues));

        byte[] partition = BinaryRows.serialize(new GenericInternalRow(new Object[] {values[3]}), List.of(lagoon.get(3)));
        assertArrayEquals(SerializationUtils.serializeBinaryRow(extractor.partition()), partition, "partition");
        byte[] trimmedPk = BinaryRows.serialize(new GenericInternalRow(new Object[] {values[0], values[1]}),
            List.of(lagoon.get(0), lagoon.get(1)));
        if (!pk.isEmpty()) {
          assertArrayEquals(SerializationUtils.serializeBinaryRow(extractor.trimmedPrimaryKey()), trimmedPk, "trimmed primary key");
        }

        String bucketKey = options.getOrDefault("bucket-key", "id,name");
        List<Integer> idx = Arrays.stream(bucketKey.split(",")).map(nm -> Arrays.asList(names).indexOf(nm)).collect(Collectors.toList());
        Object[] keyValues = idx.stream().map(i -> values[i]).toArray();
        List<PaimonType> keyTypes = idx.stream().map(lagoon::get).collect(Collectors.toList());
        assertEquals(extractor.bucket(), BucketFunction.bucket(new GenericInternalRow(keyValues), keyTypes, numBuckets),
            "bucket with " + options + " of " + render(Arrays.asList(values)));
      }
    }
  }

  @Test
  void rowKindByteMatchesPaimon() {
    List<PaimonType> types = List.of(TypeJson.parseAtomic("INT"), TypeJson.parseAtomic("STRING"), TypeJson.parseAtomic("TIMESTAMP(6)"));
    List<DataType> paimonTypes = types.stream()
        .map(t -> DataTypeJsonParser.parseAtomicTypeSQLString(t.atomicString())).collect(Collectors.toList());
    List<Object> values = Arrays.asList(5, s("a longer string"), -1L);
    List<Object> paimonValues = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) paimonValues.add(toPaimon(values.get(i), types.get(i)));
    for (RowKind kind : RowKind.values()) {
      BinaryRow theirs = paimonBySerializer(paimonValues, paimonTypes, kind);
      byte[] ours = BinaryRowWriter.write(new GenericInternalRow(values.toArray()), types, kind.toByteValue());
      assertEquals(HEX.formatHex(SerializationUtils.serializeBinaryRow(theirs)), HEX.formatHex(BinaryRows.withArity(3, ours)), kind.toString());
      assertEquals(theirs.hashCode(), BinaryRows.hash(ours), kind.toString());
    }
  }

  @Test
  void emptyRowMatchesPaimon() {
    byte[] ours = BinaryRows.serialize(new GenericInternalRow(new Object[0]), List.of());
    assertArrayEquals(SerializationUtils.serializeBinaryRow(BinaryRow.EMPTY_ROW), ours);
    assertEquals("000000000000000000000000", HEX.formatHex(ours));
    assertEquals(BinaryRow.EMPTY_ROW.hashCode(), BinaryRows.hash(BinaryRows.rowBytes(ours)));
    assertEquals(0, BinaryRows.deserialize(SerializationUtils.serializeBinaryRow(BinaryRow.EMPTY_ROW), List.of()).numFields());
  }
}
