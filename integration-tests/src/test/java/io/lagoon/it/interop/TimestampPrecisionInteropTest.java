package io.lagoon.it.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Parquet timestamps of every precision class (Paimon stores up to 3 as millis, up to 6 as micros,
 * above as INT96), top-level and in arrays, with and without local time zone: what Lagoon writes
 * into a Paimon-created table reads back the same in Paimon 1.3.1 and in Lagoon, and so does what
 * Paimon writes. Values finer than the stored unit are floored (1969-12-31 23:59:59.9985 is
 * .998 at precision 3). Each row is its own commit, so a filter on one file's stats or row group
 * must not lose the row whose stored value sits just below a sub-millisecond bound.
 */
@RequiresPaimon131
class TimestampPrecisionInteropTest extends LagoonSparkTest {
    private static final RowType TYPE = RowType.builder()
            .field("id", DataTypes.INT())
            .field("ts0", DataTypes.TIMESTAMP(0))
            .field("ts3", DataTypes.TIMESTAMP(3))
            .field("ts6", DataTypes.TIMESTAMP(6))
            .field("ts9", DataTypes.TIMESTAMP(9))
            .field("l3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
            .field("l6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
            .field("l9", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(9))
            .field("a3", DataTypes.ARRAY(DataTypes.TIMESTAMP(3)))
            .field("a9", DataTypes.ARRAY(DataTypes.TIMESTAMP(9)))
            .build();

    /** The wall clocks written, one per row (LTZ columns get the same clock in UTC). */
    private static final String[] CLOCKS = {
        "2024-01-02T03:04:05.123456", "1969-12-31T23:59:59.998500", "1500-06-01T12:00:00"};

    private static final List<String> EXPECTED = List.of(
            "id=1, ts0=2024-01-02T03:04:05.123, ts3=2024-01-02T03:04:05.123, ts6=2024-01-02T03:04:05.123456, "
                    + "ts9=2024-01-02T03:04:05.123456, l3=2024-01-02T03:04:05.123, l6=2024-01-02T03:04:05.123456, "
                    + "l9=2024-01-02T03:04:05.123456, a3=[2024-01-02T03:04:05.123, null], "
                    + "a9=[2024-01-02T03:04:05.123456]",
            "id=2, ts0=1969-12-31T23:59:59.998, ts3=1969-12-31T23:59:59.998, ts6=1969-12-31T23:59:59.9985, "
                    + "ts9=1969-12-31T23:59:59.9985, l3=1969-12-31T23:59:59.998, l6=1969-12-31T23:59:59.9985, "
                    + "l9=1969-12-31T23:59:59.9985, a3=[1969-12-31T23:59:59.998, null], "
                    + "a9=[1969-12-31T23:59:59.9985]",
            "id=3, ts0=1500-06-01T12:00:00, ts3=1500-06-01T12:00:00, ts6=1500-06-01T12:00:00, ts9=1500-06-01T12:00:00, "
                    + "l3=1500-06-01T12:00:00, l6=1500-06-01T12:00:00, l9=1500-06-01T12:00:00, a3=[1500-06-01T12:00:00, null], "
                    + "a9=[1500-06-01T12:00:00]",
            "id=4, ts0=null, ts3=null, ts6=null, ts9=null, l3=null, l6=null, l9=null, a3=null, a9=null");

    @BeforeAll
    static void java8Api() {
        spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
    }

    private static Path create(String db) {
        Schema.Builder b = Schema.newBuilder().option("file.format", "parquet");
        TYPE.getFields().forEach(f -> b.column(f.name(), f.type()));
        return PaimonOracle.createTable(warehouse, db, "t", b.build());
    }

    @Test
    void paimonReadsWhatLagoonWrote() {
        Path dir = create("lw");
        for (int i = 0; i < CLOCKS.length; i++) {
            String ntz = "TIMESTAMP_NTZ '" + CLOCKS[i].replace('T', ' ') + "'";
            String ltz = "TIMESTAMP '" + CLOCKS[i].replace('T', ' ') + "'";
            sql("INSERT INTO lake.lw.t VALUES (" + (i + 1) + ", " + ntz + ", " + ntz + ", " + ntz + ", " + ntz + ", "
                    + ltz + ", " + ltz + ", " + ltz + ", array(" + ntz + ", NULL), array(" + ntz + "))");
        }
        sql("INSERT INTO lake.lw.t VALUES (4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
        check(dir, "lake.lw.t");
    }

    @Test
    void lagoonReadsWhatPaimonWrote() {
        Path dir = create("pw");
        for (int i = 0; i < CLOCKS.length; i++) {
            LocalDateTime ntz = LocalDateTime.parse(CLOCKS[i]);
            Instant ltz = ntz.toInstant(java.time.ZoneOffset.UTC);
            PaimonOracle.writeRows(dir, List.of(PaimonOracle.row(TYPE, i + 1, ntz, ntz, ntz, ntz, ltz, ltz, ltz,
                    Arrays.asList(ntz, null), List.of(ntz))));
        }
        PaimonOracle.writeRows(dir, List.of(PaimonOracle.row(TYPE, 4, null, null, null, null, null, null, null,
                null, null)));
        check(dir, "lake.pw.t");
    }

    private static void check(Path dir, String table) {
        assertEquals(EXPECTED, PaimonOracle.readRows(dir), "Paimon 1.3.1");
        assertEquals(EXPECTED, SparkRows.renderAll(sql("SELECT * FROM " + table)), "Lagoon");
        // Row-wise reads (no column batches) convert the same way.
        spark.conf().set("spark.sql.parquet.enableVectorizedReader", "false");
        try {
            assertEquals(EXPECTED, SparkRows.renderAll(sql("SELECT * FROM " + table)), "Lagoon, row-wise");
        } finally {
            spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
        }
        // Row 1 holds .123 at precision 3, below a bound of .1234 though its millisecond is 123.
        assertEquals(List.of("1", "2", "3"), ids(table, "ts3 < TIMESTAMP_NTZ '2024-01-02 03:04:05.1234'"));
        assertEquals(List.of("1", "2", "3"), ids(table, "ts0 < TIMESTAMP_NTZ '2024-01-02 03:04:05.1234'"));
        assertEquals(List.of("1", "2", "3"), ids(table, "l3 < TIMESTAMP '2024-01-02 03:04:05.1234'"));
        assertEquals(List.of("1"), ids(table, "ts3 = TIMESTAMP_NTZ '2024-01-02 03:04:05.123'"));
        assertEquals(List.of("1"), ids(table, "ts3 > TIMESTAMP_NTZ '2024-01-02 03:04:05.122999'"));
        assertEquals(List.of("2"), ids(table, "ts9 = TIMESTAMP_NTZ '1969-12-31 23:59:59.9985'"));
        assertEquals(List.of("2"), ids(table, "l9 < TIMESTAMP '1970-01-01 00:00:00' AND l9 > TIMESTAMP '1969-12-31'"));
        assertEquals(List.of(), ids(table, "ts3 = TIMESTAMP_NTZ '2024-01-02 03:04:05.123456'"));
    }

    private static List<String> ids(String table, String where) {
        List<String> out = new ArrayList<>();
        for (org.apache.spark.sql.Row r : sql("SELECT id FROM " + table + " WHERE " + where).collectAsList()) {
            out.add(String.valueOf(r.get(0)));
        }
        out.sort(String::compareTo);
        return out;
    }
}
