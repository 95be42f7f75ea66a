package io.lagoon.it.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Proves the Paimon 1.3.1 oracle itself: fixture warehouses and a write/read round trip. */
@RequiresPaimon131
class PaimonOracleTest {

    private static final List<String> FIXTURE_COLUMNS = List.of("id", "big", "name", "score", "amount", "d", "ts");

    @TempDir
    Path tmp;

    // ------------------------------------------------------------------ (a) fixtures

    static Stream<Arguments> fixtureTables() {
        List<Arguments> out = new ArrayList<>();
        for (String warehouse : List.of(Fixtures.PAIMON_1_3_1, Fixtures.PAIMON_0_9)) {
            for (String table : Fixtures.expectations(warehouse).keySet()) {
                out.add(Arguments.of(warehouse, table));
            }
        }
        return out.stream();
    }

    @Test
    void expectationFilesParse() {
        Map<String, FixtureExpectations.Table> v131 = Fixtures.expectations(Fixtures.PAIMON_1_3_1);
        assertEquals(List.of("db.append_t", "db.pk_dv", "db.pk_part"), List.copyOf(v131.keySet()));
        FixtureExpectations.Table pkPart = v131.get("db.pk_part");
        assertEquals(List.of("id", "d"), pkPart.primaryKeys());
        assertEquals(List.of("d"), pkPart.partitionKeys());
        assertEquals(3, pkPart.latestSnapshotId());
        assertEquals("COMPACT", pkPart.latestSnapshotKind());
        assertEquals(2, pkPart.latestSplits());
        assertEquals(7, pkPart.latestRows().size());
        assertEquals(7, pkPart.tagRows("tag1").size());
        assertEquals("id=1, big=1000000000001, name=alice, score=1.5, amount=10.50, d=2024-01-01, "
                + "ts=2024-01-02T03:04:06.123456", v131.get("db.append_t").latestRows().get(0));
        assertEquals(List.of(), v131.get("db.append_t").primaryKeys());
        assertEquals(12, Fixtures.expectations(Fixtures.PAIMON_0_9).get("db.pk_dv").latestSnapshotId());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fixtureTables")
    void readsFixtureTable(String warehouseName, String tableName) {
        FixtureExpectations.Table expected = Fixtures.expectations(warehouseName).get(tableName);
        Path warehouse = Fixtures.copyWarehouse(warehouseName, tmp);
        Path tableDir = warehouse.resolve(expected.databaseName() + ".db").resolve(expected.tableName());

        assertEquals(FIXTURE_COLUMNS, PaimonOracle.columnNames(tableDir));
        assertEquals(expected.latestSnapshotId(), PaimonOracle.latestSnapshotId(tableDir).orElseThrow());
        assertEquals(expected.latestRows(), PaimonOracle.readRows(tableDir), "latest rows of " + tableName);
        assertEquals(expected.latestRows(), PaimonOracle.readRows(tableDir, expected.latestSnapshotId()));
        assertEquals(expected.latestSplits(), PaimonOracle.planSplitCount(tableDir, Map.of()));
        for (FixtureExpectations.Tag tag : expected.tags().values()) {
            assertEquals(tag.rows(), PaimonOracle.readRowsAtTag(tableDir, tag.name()), tableName + " @ " + tag.name());
            assertEquals(tag.splits(), PaimonOracle.planSplitCount(tableDir, Map.of("scan.tag-name", tag.name())));
        }
    }

    // ----------------------------------------------------------- (b) round trip

    private static final RowType ALL_TYPES = RowType.of(
            new org.apache.paimon.types.DataType[] {
                DataTypes.INT(), DataTypes.BOOLEAN(), DataTypes.TINYINT(), DataTypes.SMALLINT(),
                DataTypes.BIGINT(), DataTypes.FLOAT(), DataTypes.DOUBLE(), DataTypes.DECIMAL(10, 2),
                DataTypes.DECIMAL(38, 10), DataTypes.STRING(), DataTypes.VARCHAR(20), DataTypes.CHAR(5),
                DataTypes.BINARY(4), DataTypes.VARBINARY(10), DataTypes.DATE(), DataTypes.TIMESTAMP(6),
                DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6), DataTypes.ARRAY(DataTypes.INT()),
                DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()),
                DataTypes.ROW(DataTypes.FIELD(100, "x", DataTypes.INT()), DataTypes.FIELD(101, "y", DataTypes.STRING())),
                DataTypes.STRING()},
            new String[] {"id", "b", "ti", "si", "big", "f", "db", "dec", "dec38", "s", "vc", "ch", "bin",
                "vbin", "d", "ts", "tsl", "arr", "m", "st", "part"});

    private static Schema allTypesSchema() {
        Schema.Builder b = Schema.newBuilder();
        for (org.apache.paimon.types.DataField f : ALL_TYPES.getFields()) {
            b.column(f.name(), f.type());
        }
        return b.partitionKeys("part").option("bucket", "-1").build();
    }

    private static Map<String, Integer> map(Object... kv) {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], (Integer) kv[i + 1]);
        }
        return m;
    }

    @Test
    void roundTripEveryType() {
        Path tableDir = PaimonOracle.createTable(tmp.resolve("wh"), "db", "all_types", allTypesSchema());
        assertTrue(Files.isDirectory(tableDir.resolve("schema")), "table folder " + tableDir);
        assertEquals(Arrays.asList(ALL_TYPES.getFieldNames().toArray()), PaimonOracle.columnNames(tableDir));
        assertTrue(PaimonOracle.readRows(tableDir).isEmpty());
        assertFalse(PaimonOracle.latestSnapshotId(tableDir).isPresent());

        List<InternalRow> commit1 = List.of(
                PaimonOracle.row(ALL_TYPES, 1, true, (byte) -128, (short) 32767, Long.MAX_VALUE, 1.5f, 2.25,
                        new BigDecimal("12345678.90"), new BigDecimal("1234567890123456789012345678.0123456789"),
                        "hello", "varchar", "ab", new byte[] {1, 2, (byte) 0xff, 0}, new byte[] {(byte) 0xca, (byte) 0xfe},
                        LocalDate.of(2024, 1, 1), LocalDateTime.parse("2024-01-02T03:04:05.123456"),
                        Instant.parse("2024-01-02T03:04:05.654321Z"), Arrays.asList(1, 2, null),
                        map("b", null, "a", 1), List.of(7, "why"), "p1"),
                PaimonOracle.row(ALL_TYPES, 2, false, 0, -1, -5L, -0.25f, 1.0E10,
                        new BigDecimal("-0.01"), new BigDecimal("0"),
                        "", "x", "abcde", new byte[4], new byte[0],
                        LocalDate.of(1969, 12, 31), LocalDateTime.parse("2024-01-02T03:04"),
                        Instant.parse("1970-01-01T00:00:00Z"), List.of(), map(), new Object[] {null, null}, "p1"),
                PaimonOracle.row(ALL_TYPES, 3, null, null, null, null, null, null, null, null, null, null, null,
                        null, null, null, null, null, null, null, null, "p2"));
        PaimonOracle.writeRows(tableDir, commit1);
        List<String> expected1 = List.of(
                "id=1, b=true, ti=-128, si=32767, big=9223372036854775807, f=1.5, db=2.25, dec=12345678.90, "
                        + "dec38=1234567890123456789012345678.0123456789, s=hello, vc=varchar, ch=ab, bin=0102ff00, "
                        + "vbin=cafe, d=2024-01-01, ts=2024-01-02T03:04:05.123456, tsl=2024-01-02T03:04:05.654321, "
                        + "arr=[1, 2, null], m={a=1, b=null}, st={x=7, y=why}, part=p1",
                "id=2, b=false, ti=0, si=-1, big=-5, f=-0.25, db=1.0E10, dec=-0.01, dec38=0.0000000000, s=, vc=x, "
                        + "ch=abcde, bin=00000000, vbin=, d=1969-12-31, ts=2024-01-02T03:04:00, "
                        + "tsl=1970-01-01T00:00:00, arr=[], m={}, st={x=null, y=null}, part=p1",
                "id=3, b=null, ti=null, si=null, big=null, f=null, db=null, dec=null, dec38=null, s=null, vc=null, "
                        + "ch=null, bin=null, vbin=null, d=null, ts=null, tsl=null, arr=null, m=null, st=null, part=p2");
        assertEquals(sorted(expected1), PaimonOracle.readRows(tableDir));
        assertEquals(1L, PaimonOracle.latestSnapshotId(tableDir).orElseThrow());
        PaimonOracle.createTag(tableDir, "t1", 1);

        PaimonOracle.writeRows(tableDir, List.of(
                PaimonOracle.row(ALL_TYPES, 4, true, 1, 2, 3L, Float.NaN, -0.0, new BigDecimal("99999999.99"),
                        new BigDecimal("-0.0000000001"), "ünïcødé", "v", "c", new byte[] {0x7f, 0, 0, 1},
                        new byte[] {1}, LocalDate.of(2000, 2, 29), LocalDateTime.parse("1999-12-31T23:59:59.999999"),
                        Instant.parse("2024-06-30T12:00:00.1Z"), List.of(-1), map("k", -2), List.of(-3, "z"), "p2"),
                PaimonOracle.row(ALL_TYPES, 5, true, 1, 2, 3L, 3.0f, 0.1, new BigDecimal("1"),
                        new BigDecimal("1.5"), "s5", "v5", "c5", new byte[] {1, 1, 1, 1},
                        new byte[] {2}, LocalDate.of(2024, 1, 2), LocalDateTime.parse("2024-01-02T03:04:05.100"),
                        Instant.parse("2024-01-02T03:04:05Z"), List.of(5, 5), map("z", 1, "a", 2), List.of(5, "five"), "p3")));
        List<String> expected2 = new ArrayList<>(sorted(expected1));
        expected2.add("id=4, b=true, ti=1, si=2, big=3, f=NaN, db=-0.0, dec=99999999.99, dec38=-0.0000000001, "
                + "s=ünïcødé, vc=v, ch=c, bin=7f000001, vbin=01, d=2000-02-29, ts=1999-12-31T23:59:59.999999, "
                + "tsl=2024-06-30T12:00:00.1, arr=[-1], m={k=-2}, st={x=-3, y=z}, part=p2");
        expected2.add("id=5, b=true, ti=1, si=2, big=3, f=3.0, db=0.1, dec=1.00, dec38=1.5000000000, s=s5, vc=v5, "
                + "ch=c5, bin=01010101, vbin=02, d=2024-01-02, ts=2024-01-02T03:04:05.1, tsl=2024-01-02T03:04:05, "
                + "arr=[5, 5], m={a=2, z=1}, st={x=5, y=five}, part=p3");
        expected2.sort(null);
        assertEquals(expected2, PaimonOracle.readRows(tableDir));
        assertEquals(sorted(expected1), PaimonOracle.readRows(tableDir, 1));
        assertEquals(sorted(expected1), PaimonOracle.readRowsAtTag(tableDir, "t1"));
        assertEquals(2L, PaimonOracle.latestSnapshotId(tableDir).orElseThrow());
        assertTrue(Files.isDirectory(tableDir.resolve("part=p3")), "partition folder part=p3");
    }

    private static List<String> sorted(List<String> rows) {
        List<String> out = new ArrayList<>(rows);
        out.sort(null);
        return out;
    }

    static Stream<Arguments> primaryKeyLayouts() {
        return Stream.of(
                Arguments.of("dynamic bucket", Map.of()),
                Arguments.of("fixed bucket + deletion vectors", Map.of("bucket", "2", "deletion-vectors.enabled", "true")),
                Arguments.of("fixed bucket, partial-update", Map.of("bucket", "1", "merge-engine", "partial-update")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("primaryKeyLayouts")
    void roundTripPrimaryKeyTable(String label, Map<String, String> options) {
        RowType type = RowType.of(new org.apache.paimon.types.DataType[] {
            DataTypes.INT().notNull(), DataTypes.STRING(), DataTypes.DECIMAL(10, 2), DataTypes.DATE().notNull()},
            new String[] {"id", "v", "amount", "d"});
        Schema.Builder b = Schema.newBuilder();
        type.getFields().forEach(f -> b.column(f.name(), f.type()));
        Path tableDir = PaimonOracle.createTable(tmp.resolve("wh"), "db", "pk",
                b.primaryKey("id", "d").partitionKeys("d").options(options).build());
        LocalDate d1 = LocalDate.of(2024, 1, 1);
        PaimonOracle.writeRows(tableDir, List.of(
                PaimonOracle.row(type, 1, "a", new BigDecimal("1.5"), d1),
                PaimonOracle.row(type, 2, "b", new BigDecimal("2.25"), d1),
                PaimonOracle.row(type, 3, "c", new BigDecimal("3"), d1)));
        List<String> v1 = List.of(
                "id=1, v=a, amount=1.50, d=2024-01-01",
                "id=2, v=b, amount=2.25, d=2024-01-01",
                "id=3, v=c, amount=3.00, d=2024-01-01");
        assertEquals(v1, PaimonOracle.readRows(tableDir));
        long s1 = PaimonOracle.latestSnapshotId(tableDir).orElseThrow();

        boolean partialUpdate = "partial-update".equals(options.get("merge-engine"));
        List<GenericRow> commit2 = new ArrayList<>();
        commit2.add(PaimonOracle.row(type, 2, "b2", null, d1));
        if (!partialUpdate) { // partial-update does not accept DELETE rows by default
            commit2.add(PaimonOracle.rowOfKind(RowKind.DELETE, type, 3, "c", new BigDecimal("3"), d1));
        }
        commit2.add(PaimonOracle.row(type, 4, "d", new BigDecimal("4.4"), LocalDate.of(2024, 1, 2)));
        PaimonOracle.writeRows(tableDir, commit2);

        List<String> v2 = new ArrayList<>();
        v2.add("id=1, v=a, amount=1.50, d=2024-01-01");
        v2.add(partialUpdate ? "id=2, v=b2, amount=2.25, d=2024-01-01" : "id=2, v=b2, amount=null, d=2024-01-01");
        if (partialUpdate) {
            v2.add("id=3, v=c, amount=3.00, d=2024-01-01");
        }
        v2.add("id=4, v=d, amount=4.40, d=2024-01-02");
        assertEquals(v2, PaimonOracle.readRows(tableDir));
        assertEquals(v1, PaimonOracle.readRows(tableDir, s1));
    }
}
