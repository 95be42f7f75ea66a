package io.lagoon.core.mergetree.engine;

import static io.lagoon.core.mergetree.engine.EngineTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AggregateMergeFunctionTest {
  static final List<String> PK = List.of("k");

  static MergeFunction mf(List<DataField> f, String... extra) {
    String[] o = new String[extra.length + 2];
    o[0] = "merge-engine";
    o[1] = "aggregation";
    System.arraycopy(extra, 0, o, 2, extra.length);
    return MergeFunctions.create(opts(o), f, PK);
  }

  /** Aggregates the values, as +I records of key 1, into column v of the given type. */
  static Object agg(String fn, PaimonType type, Object... values) {
    return aggRecords(fn, type, records(values), new String[0]);
  }

  static List<KeyValue> records(Object... values) {
    List<KeyValue> recs = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      recs.add(ins(i + 1, 1, values[i]));
    }
    return recs;
  }

  static Object aggRecords(String fn, PaimonType type, List<KeyValue> recs, String... extra) {
    List<DataField> f = fields("k", INT, "v", type);
    String[] o = new String[extra.length + 2];
    o[0] = "fields.v.aggregate-function";
    o[1] = fn;
    System.arraycopy(extra, 0, o, 2, extra.length);
    KeyValue r = merge(mf(f, o), recs);
    return r == null ? "<absent>" : values(r, f).get(1);
  }

  static PaimonType t(TypeRoot root) {
    return PaimonType.of(root);
  }

  // ------------------------------------------------------------ the engine

  @Test
  void exampleFromTheDocs() {
    List<DataField> f = fields("k", BIGINT, "price", DOUBLE, "sales", BIGINT);
    MergeFunction m = MergeFunctions.create(opts("merge-engine", "aggregation",
        "fields.price.aggregate-function", "max", "fields.sales.aggregate-function", "sum"), f, List.of("k"));
    KeyValue r = merge(m, List.of(ins(1, 1L, 23.0, 15L), ins(2, 1L, 30.2, 20L)));
    assertEquals(list(1L, 30.2, 35L), values(r, f));
    assertEquals(KeyValue.INSERT, r.rowKind());
    assertEquals(2, r.sequence());
  }

  @Test
  void unspecifiedColumnsKeepTheLastNonNullValue() {
    List<DataField> f = fields("k", INT, "name", STRING, "n", BIGINT);
    KeyValue r = merge(mf(f, "fields.n.aggregate-function", "sum"),
        List.of(ins(1, 1, s("a"), 1L), ins(2, 1, null, 2L), ins(3, 1, s("c"), null), ins(4, 1, null, 4L)));
    assertEquals(list(1, "c", 7L), values(r, f));
  }

  @Test
  void defaultAggregateFunctionAppliesToUnspecifiedColumns() {
    List<DataField> f = fields("k", INT, "a", BIGINT, "b", BIGINT);
    KeyValue r = merge(mf(f, "fields.default-aggregate-function", "sum", "fields.b.aggregate-function", "max"),
        List.of(ins(1, 1, 1L, 5L), ins(2, 1, 2L, 3L)));
    assertEquals(list(1, 3L, 5L), values(r, f));
  }

  @Test
  void sequenceFieldColumnKeepsTheLastValue() {
    List<DataField> f = fields("k", INT, "ts", BIGINT, "n", BIGINT);
    Map<String, String> o = opts("merge-engine", "aggregation", "sequence.field", "ts", "fields.n.aggregate-function", "sum");
    List<KeyValue> recs = new ArrayList<>(List.of(ins(1, 1, 30L, 1L), ins(2, 1, 10L, 2L), ins(3, 1, 20L, 3L)));
    RecordOrder.create(o, f).sort(recs);
    assertEquals(list(1, 30L, 6L), values(MergeFunctions.create(o, f, PK).merge(recs), f));
  }

  @Test
  void primaryKeyColumnsKeepTheKey() {
    List<DataField> f = fields("k", INT, "k2", STRING, "n", BIGINT);
    KeyValue r = merge(MergeFunctions.create(opts("merge-engine", "aggregation", "fields.n.aggregate-function", "sum"),
        f, List.of("k", "k2")), List.of(ins(1, 1, s("x"), 1L), ins(2, 1, s("x"), 2L)));
    assertEquals(list(1, "x", 3L), values(r, f));
  }

  @Test
  void retractionsFollowEachFunction() {
    List<DataField> f = fields("k", INT, "total", BIGINT, "prod", INT, "last", STRING, "lnn", STRING, "top", INT);
    MergeFunction m = mf(f, "fields.total.aggregate-function", "sum", "fields.prod.aggregate-function", "product",
        "fields.last.aggregate-function", "last_value", "fields.top.aggregate-function", "max",
        "fields.top.ignore-retract", "true");
    KeyValue r = merge(m, List.of(ins(1, 1, 10L, 6, s("a"), s("a"), 3), ins(2, 1, 5L, 4, s("b"), s("b"), 8),
        ub(3, 1, 5L, 4, s("b"), s("b"), 8)));
    assertEquals(list(1, 10L, 6, null, null, 8), values(r, f));
    r = merge(m, List.of(ins(1, 1, 10L, 6, s("a"), s("a"), 3), ub(2, 1, 5L, 3, s("b"), s("b"), 8),
        upd(3, 1, 7L, 2, s("c"), null, 1)));
    assertEquals(list(1, 12L, 4, "c", null, 3), values(r, f));
  }

  @Test
  void aKeyWithOnlyRetractionsStillHasARow() {
    assertEquals(-5L, aggRecords("sum", BIGINT, List.of(del(1, 1, 5L))));
    assertNull(aggRecords("product", BIGINT, List.of(del(1, 1, 5L))));
  }

  @Test
  void nonRetractableFunctionsRefuseRetractions() {
    for (String fn : List.of("max", "min", "first_value", "first_non_null_value", "bool_and", "bool_or", "listagg")) {
      PaimonType type = fn.startsWith("bool") ? BOOLEAN : fn.equals("listagg") ? STRING : INT;
      Object v = fn.startsWith("bool") ? (Object) true : fn.equals("listagg") ? s("x") : (Object) 1;
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> aggRecords(fn, type, List.of(ins(1, 1, v), del(2, 1, v))), fn);
      assertTrue(e.getMessage().contains("'fields.v.ignore-retract'='true'"), e.getMessage());
      assertTrue(e.getMessage().contains("'" + fn + "'"), e.getMessage());
      assertTrue(e.getMessage().contains("column 'v'"), e.getMessage());
      assertEquals(v instanceof Integer ? 1 : v instanceof Boolean ? true : "x",
          aggRecords(fn, type, List.of(ins(1, 1, v), del(2, 1, v)), "fields.v.ignore-retract", "true"), fn);
    }
  }

  @Test
  void refusalChangesNothing() {
    List<DataField> f = fields("k", INT, "total", BIGINT, "top", INT);
    MergeFunction m = mf(f, "fields.total.aggregate-function", "sum", "fields.top.aggregate-function", "max");
    m.reset();
    m.add(ins(1, 1, 10L, 3));
    assertThrows(IllegalStateException.class, () -> m.add(del(2, 1, 4L, 3)));
    assertEquals(list(1, 10L, 3), values(m.result(), f));
  }

  @Test
  void ignoreRetractAlsoAppliesToRetractableFunctions() {
    assertEquals(5L, aggRecords("sum", BIGINT, List.of(ins(1, 1, 5L), del(2, 1, 5L)), "fields.v.ignore-retract", "true"));
  }

  @Test
  void ignoreDeleteDropsAllRetractions() {
    assertEquals(5L, aggRecords("sum", BIGINT, List.of(ins(1, 1, 5L), del(2, 1, 5L), ub(3, 1, 5L)), "ignore-delete", "true"));
    assertEquals("<absent>", aggRecords("sum", BIGINT, List.of(del(1, 1, 5L)), "ignore-delete", "true"));
    assertEquals(1, aggRecords("max", INT, List.of(ins(1, 1, 1), del(2, 1, 1)), "ignore-delete", "true"));
  }

  @Test
  void removeRecordOnDelete() {
    String[] o = {"aggregation.remove-record-on-delete", "true"};
    assertEquals("<absent>", aggRecords("sum", BIGINT, List.of(ins(1, 1, 5L), del(2, 1, 1L)), o));
    assertEquals(7L, aggRecords("sum", BIGINT, List.of(ins(1, 1, 5L), del(2, 1, 1L), ins(3, 1, 7L)), o));
    // -U still retracts.
    assertEquals(4L, aggRecords("sum", BIGINT, List.of(ins(1, 1, 5L), ub(2, 1, 1L)), o));
    // A delete removes the row even where the function cannot retract.
    assertEquals("<absent>", aggRecords("max", INT, List.of(ins(1, 1, 5), del(2, 1, 1)), o));
  }

  @Test
  void copiesRowsAReaderReuses() {
    List<DataField> f = fields("k", INT, "list", STRING, "top", STRING, "last", STRING, "first", STRING, "n", BIGINT);
    MergeFunction m = mf(f, "fields.list.aggregate-function", "listagg", "fields.top.aggregate-function", "max",
        "fields.last.aggregate-function", "last_value", "fields.first.aggregate-function", "first_non_null_value",
        "fields.n.aggregate-function", "sum");
    KeyValue r = mergeReusing(m, f, List.of(ins(1, 1, s("aa"), s("zebra"), s("x1"), s("first!"), 1L),
        ins(2, 1, s("bb"), s("apple"), s("x2"), s("second"), 2L), ins(3, 1, null, null, s("the last one"), null, 3L)));
    assertEquals(list(1, "aa,bb", "zebra", "the last one", "first!", 6L), values(r, f));
  }

  // ------------------------------------------------------------ each function

  @Test
  void sumOnEveryNumericType() {
    assertEquals((byte) 7, agg("sum", t(TypeRoot.TINYINT), (byte) 3, null, (byte) 4));
    assertEquals((short) 700, agg("sum", t(TypeRoot.SMALLINT), (short) 300, (short) 400));
    assertEquals(7, agg("sum", INT, 3, 4, null));
    assertEquals(7L, agg("sum", BIGINT, null, 3L, 4L));
    assertEquals(1.5f, agg("sum", t(TypeRoot.FLOAT), 1.0f, 0.5f));
    assertEquals(1.5, agg("sum", DOUBLE, 1.0, 0.5));
    assertEquals(new BigDecimal("4.69"), agg("sum", PaimonType.decimal(5, 2), dec("1.23", 5, 2), dec("3.46", 5, 2)));
    assertNull(agg("sum", INT, null, null));
  }

  @Test
  void sumWrapsIntegersAndNullsOverflowingDecimals() {
    assertEquals((byte) -126, agg("sum", t(TypeRoot.TINYINT), (byte) 127, (byte) 3));
    assertEquals(Integer.MIN_VALUE, agg("sum", INT, Integer.MAX_VALUE, 1));
    assertNull(agg("sum", PaimonType.decimal(3, 1), dec("99.9", 3, 1), dec("0.1", 3, 1)));
  }

  @Test
  void sumRetractionSubtracts() {
    assertEquals(2L, aggRecords("sum", BIGINT, List.of(ins(1, 1, 5L), ub(2, 1, 3L), ub(3, 1, null))));
    assertEquals(new BigDecimal("-1.50"), aggRecords("sum", PaimonType.decimal(5, 2),
        List.of(del(1, 1, dec("1.50", 5, 2)))));
    assertEquals((byte) 2, aggRecords("sum", t(TypeRoot.TINYINT), List.of(ins(1, 1, (byte) 5), ub(2, 1, (byte) 3))));
    assertEquals(-2.5, aggRecords("sum", DOUBLE, List.of(ins(1, 1, 0.5), ub(2, 1, 3.0))));
  }

  @Test
  void productOnEveryNumericType() {
    assertEquals((byte) 12, agg("product", t(TypeRoot.TINYINT), (byte) 3, null, (byte) 4));
    assertEquals((short) 12, agg("product", t(TypeRoot.SMALLINT), (short) 3, (short) 4));
    assertEquals(24, agg("product", INT, 2, 3, 4));
    assertEquals(24L, agg("product", BIGINT, 2L, 3L, 4L));
    assertEquals(0.5f, agg("product", t(TypeRoot.FLOAT), 1.0f, 0.5f));
    assertEquals(0.25, agg("product", DOUBLE, 0.5, 0.5));
    assertEquals(new BigDecimal("4.26"), agg("product", PaimonType.decimal(5, 2), dec("1.23", 5, 2), dec("3.46", 5, 2)));
  }

  @Test
  void productRetractionDivides() {
    assertEquals(6L, aggRecords("product", BIGINT, List.of(ins(1, 1, 2L), ins(2, 1, 3L), ins(3, 1, 4L), ub(4, 1, 4L))));
    assertEquals(2.0, aggRecords("product", DOUBLE, List.of(ins(1, 1, 8.0), del(2, 1, 4.0))));
    assertEquals(new BigDecimal("2.00"), aggRecords("product", PaimonType.decimal(5, 2),
        List.of(ins(1, 1, dec("3.00", 5, 2)), ins(2, 1, dec("2.00", 5, 2)), del(3, 1, dec("3.00", 5, 2)))));
    assertNull(aggRecords("product", BIGINT, List.of(ins(1, 1, 0L), ub(2, 1, 0L))));
    assertNull(aggRecords("product", BIGINT, List.of(ub(1, 1, 3L), ins(2, 1, null))));
  }

  static Stream<Arguments> orderedTypes() {
    return Stream.of(
        Arguments.of(t(TypeRoot.TINYINT), new Object[] {(byte) 5, (byte) -3, (byte) 9}),
        Arguments.of(t(TypeRoot.SMALLINT), new Object[] {(short) 5, (short) -3, (short) 9}),
        Arguments.of(INT, new Object[] {5, -3, 9}),
        Arguments.of(BIGINT, new Object[] {5L, -3L, 9L}),
        Arguments.of(t(TypeRoot.FLOAT), new Object[] {5f, -3f, 9f}),
        Arguments.of(DOUBLE, new Object[] {5.0, -3.0, 9.0}),
        Arguments.of(PaimonType.decimal(10, 3), new Object[] {dec("5.5", 10, 3), dec("-3.25", 10, 3), dec("9", 10, 3)}),
        Arguments.of(STRING, new Object[] {s("m"), s("Apple"), s("zoo")}),
        Arguments.of(PaimonType.withLength(TypeRoot.CHAR, 3), new Object[] {s("mmm"), s("Aaa"), s("zzz")}),
        Arguments.of(t(TypeRoot.DATE), new Object[] {19000, -1, 20000}),
        Arguments.of(t(TypeRoot.TIME), new Object[] {5000, 0, 86_000_000}),
        Arguments.of(PaimonType.timestamp(6, false), new Object[] {5L, -3L, 9L}),
        Arguments.of(PaimonType.timestamp(3, true), new Object[] {5L, -3L, 9L}));
  }

  @ParameterizedTest
  @MethodSource("orderedTypes")
  void minAndMaxOnEveryOrderedType(PaimonType type, Object[] v) {
    assertEquals(plain(v[1]), agg("min", type, v[0], null, v[1], v[2]), "min " + type);
    assertEquals(plain(v[2]), agg("max", type, v[0], v[1], null, v[2]), "max " + type);
    assertEquals(plain(v[0]), agg("max", type, null, v[0]), "max " + type);
    assertNull(agg("min", type, null, null));
  }

  @Test
  void stringsCompareBytewise() {
    // 'é' encodes above any ASCII byte, as in Paimon's BinaryString order.
    assertEquals("é", agg("max", STRING, s("z"), s("é"), s("Z")));
    assertEquals("Z", agg("min", STRING, s("z"), s("é"), s("Z")));
  }

  @Test
  void lastValueTakesTheLatestIncludingNulls() {
    assertNull(agg("last_value", STRING, s("a"), s("b"), null));
    assertEquals("c", agg("last_value", STRING, s("a"), null, s("c")));
    assertNull(aggRecords("last_value", STRING, List.of(ins(1, 1, s("a")), ub(2, 1, s("a")))));
    assertEquals(List.of(1, 2), arrayInts(agg("last_value", PaimonType.array(INT), new GenericArrayData(new Object[] {1, 2}))));
  }

  @Test
  void lastNonNullValueSkipsNulls() {
    assertEquals("b", agg("last_non_null_value", STRING, s("a"), s("b"), null));
    assertNull(agg("last_non_null_value", STRING, null, null));
    assertNull(aggRecords("last_non_null_value", STRING, List.of(ins(1, 1, s("a")), del(2, 1, s("a")))));
    assertEquals("n", aggRecords("last_non_null_value", STRING, List.of(ins(1, 1, s("a")), del(2, 1, s("a")), ins(3, 1, s("n")))));
  }

  @Test
  void firstValueKeepsTheFirstEvenIfNull() {
    assertNull(agg("first_value", STRING, null, s("b")));
    assertEquals("a", agg("first_value", STRING, s("a"), s("b"), null));
    assertEquals(true, agg("first_value", BOOLEAN, true, false));
  }

  @Test
  void firstNonNullValueKeepsTheFirstNonNull() {
    assertEquals("b", agg("first_non_null_value", STRING, null, s("b"), s("c")));
    assertEquals(4L, agg("first_non_null_value", BIGINT, null, null, 4L, 5L));
    assertNull(agg("first_non_null_value", BIGINT, null, null));
  }

  @Test
  void listaggConcatenatesWithTheDelimiter() {
    assertEquals("a,b,c", agg("listagg", STRING, s("a"), null, s("b"), s("c")));
    assertEquals("a | b", aggRecords("listagg", STRING, records(s("a"), s("b")), "fields.v.list-agg-delimiter", " | "));
    assertEquals("ab", aggRecords("listagg", STRING, records(s("a"), s("b")), "fields.v.list-agg-delimiter", ""));
    assertNull(agg("listagg", STRING, null, null));
    assertEquals("x,y", agg("listagg", PaimonType.withLength(TypeRoot.CHAR, 1), s("x"), s("y")));
  }

  @Test
  void listaggDistinctSkipsTokensAlreadyPresent() {
    // What is already aggregated stays as it is; blank tokens are skipped; tokens match exactly.
    assertEquals("a,b,a,c, a", aggRecords("listagg", STRING, records(s("a,b,a"), s("b"), s("c,, a"), s("c")),
        "fields.v.distinct", "true"));
    assertEquals("x;y", aggRecords("listagg", STRING, records(s("x"), s("y;x"), s(";")),
        "fields.v.distinct", "true", "fields.v.list-agg-delimiter", ";"));
  }

  @Test
  void boolAndAndBoolOr() {
    assertEquals(true, agg("bool_and", BOOLEAN, true, null, true));
    assertEquals(false, agg("bool_and", BOOLEAN, true, false, true));
    assertEquals(false, agg("bool_or", BOOLEAN, false, null, false));
    assertEquals(true, agg("bool_or", BOOLEAN, false, true, false));
    assertNull(agg("bool_or", BOOLEAN, null, null));
  }

  static ArrayData ints(Object... v) {
    return new GenericArrayData(v);
  }

  static List<Object> arrayInts(Object array) {
    ArrayData a = (ArrayData) array;
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < a.numElements(); i++) {
      out.add(a.isNullAt(i) ? null : a.getInt(i));
    }
    return out;
  }

  @Test
  void collectAppendsAndRetracts() {
    PaimonType arr = PaimonType.array(INT);
    assertEquals(Arrays.asList(1, 2, 2, null, 3), arrayInts(agg("collect", arr, ints(1, 2), null, ints(2, null, 3))));
    assertEquals(Arrays.asList(1, 2, null, 3),
        arrayInts(aggRecords("collect", arr, records(ints(1, 2), ints(2, null, 3, 1)), "fields.v.distinct", "true")));
    assertEquals(Arrays.asList(2, 3),
        arrayInts(aggRecords("collect", arr, List.of(ins(1, 1, ints(1, 2, 1)), ins(2, 1, ints(3)), ub(3, 1, ints(1, 1, 9))))));
  }

  static MapData map(Object... kv) {
    Object[] k = new Object[kv.length / 2];
    Object[] v = new Object[kv.length / 2];
    for (int i = 0; i < k.length; i++) {
      k[i] = kv[2 * i];
      v[i] = kv[2 * i + 1];
    }
    return new ArrayBasedMapData(new GenericArrayData(k), new GenericArrayData(v));
  }

  static java.util.Map<Object, Object> javaMap(Object m) {
    MapData d = (MapData) m;
    java.util.Map<Object, Object> out = new java.util.LinkedHashMap<>();
    for (int i = 0; i < d.numElements(); i++) {
      out.put(d.keyArray().getUTF8String(i).toString(), d.valueArray().isNullAt(i) ? null : d.valueArray().getInt(i));
    }
    return out;
  }

  @Test
  void mergeMapMergesAndRetracts() {
    PaimonType mt = PaimonType.map(STRING.notNull(), INT);
    assertEquals(Map.of("a", 1, "b", 3, "c", 4),
        javaMap(agg("merge_map", mt, map(s("a"), 1, s("b"), 2), null, map(s("b"), 3, s("c"), 4))));
    assertEquals(Map.of("b", 2),
        javaMap(aggRecords("merge_map", mt, List.of(ins(1, 1, map(s("a"), 1, s("b"), 2)), del(2, 1, map(s("a"), 7))))));
  }

  // ------------------------------------------------------------ validation

  @Test
  void functionsRejectTypesTheyDoNotSupport() {
    Object[][] cases = {
        {"sum", STRING}, {"sum", BOOLEAN}, {"product", t(TypeRoot.DATE)}, {"max", BOOLEAN},
        {"min", t(TypeRoot.VARBINARY)}, {"min", PaimonType.array(INT)}, {"listagg", INT}, {"bool_and", INT},
        {"bool_or", STRING}, {"collect", INT}, {"merge_map", PaimonType.array(INT)}};
    for (Object[] c : cases) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> mf(fields("k", INT, "amount", (PaimonType) c[1]), "fields.amount.aggregate-function", (String) c[0]),
          c[0] + " on " + c[1]);
      assertTrue(e.getMessage().contains("column 'amount'"), e.getMessage());
      assertTrue(e.getMessage().contains("'" + c[0] + "'"), e.getMessage());
      assertTrue(e.getMessage().contains("fields.amount.aggregate-function"), e.getMessage());
    }
  }

  @Test
  void lastAndFirstFunctionsAcceptAnyType() {
    for (String fn : List.of("last_value", "last_non_null_value", "first_value", "first_non_null_value")) {
      for (PaimonType type : List.of(BOOLEAN, t(TypeRoot.VARBINARY), PaimonType.array(INT),
          PaimonType.map(STRING, INT), PaimonType.row(fields("x", INT)))) {
        assertNotNull(mf(fields("k", INT, "v", type), "fields.v.aggregate-function", fn));
      }
    }
  }
}
