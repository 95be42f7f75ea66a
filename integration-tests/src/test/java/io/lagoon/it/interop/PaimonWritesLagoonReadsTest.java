package io.lagoon.it.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Interop (b): tables the real Paimon 1.3.1 wrote (Java API; several commits including partition
 * overwrites, which leave DELETE entries in Paimon's manifests), in Parquet and in ORC, with every
 * type Lagoon supports, are read by Lagoon through Spark SQL with exactly the rows Paimon reads
 * and the test wrote. Filters on every column type and on the partition keys return the same rows
 * as an unpruned scan while skipping files: Lagoon's partition and min/max pruning decodes
 * Paimon's partition rows and stats bytes correctly.
 */
@RequiresPaimon131
class PaimonWritesLagoonReadsTest extends LagoonSparkTest {

    @BeforeAll
    static void java8Api() {
        spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"parquet", "orc"})
    void lagoonReadsWhatPaimonWrote(String format) {
        String db = "pw_" + format;
        Path dir = PaimonOracle.createTable(warehouse, db, "all_types",
                PaimonTables.schema(Map.of("file.format", format)));
        String table = "lake." + db + ".all_types";
        InteropData.Writer paimon = PaimonTables.writer(dir);

        RowDiff diff = new RowDiff();
        List<List<Object>> current = new ArrayList<>();
        boolean lagoonReads = true;
        for (InteropData.Step step : InteropData.steps(format, false)) {
            paimon.apply(step);
            current = step.apply(current);
            List<String> expected = InteropData.render(current);
            diff.check("Paimon 1.3.1 after " + step, expected, PaimonOracle.readRows(dir));
            try {
                diff.check("Lagoon after " + step, expected, SparkRows.renderAll(sql("SELECT * FROM " + table)));
            } catch (Exception e) {
                diff.problem("Lagoon after " + step + ": " + rootMessage(e));
                lagoonReads = false;
            }
        }
        for (String p : PaimonTables.statsProblems(dir)) {
            diff.problem("Paimon's own stats (check of the stats model): " + p);
        }
        if (lagoonReads) {
            SparkScanProbe.checkFilters(spark, table, InteropData.sqlFilters(), diff);
        }
        assertEquals(List.of(), diff.problems());
        assertEquals(expectedSparkTypes(), sparkTypes(table));
    }

    /**
     * Paimon types a Spark DDL never produces: TIMESTAMP(0/3/9) and TIMESTAMP(3) WITH LOCAL TIME
     * ZONE (millisecond timestamps are "compact" in stats rows: a different BinaryRow layout),
     * BINARY(n)/VARBINARY(n), DECIMAL(18, 4) (the last compact decimal) and DECIMAL(19, 4), and an
     * INT partition key. Lagoon reads them (nanoseconds cut to Spark's microseconds; TIMESTAMP(9) is
     * INT96 in Parquet, which Spark's reader refuses as TIMESTAMP_NTZ) and prunes with their stats.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"parquet", "orc"})
    void paimonOnlyTypes(String format) {
        org.apache.paimon.types.RowType type = org.apache.paimon.types.RowType.of(
                new org.apache.paimon.types.DataType[] {
                    org.apache.paimon.types.DataTypes.INT(),
                    org.apache.paimon.types.DataTypes.TIMESTAMP(0),
                    org.apache.paimon.types.DataTypes.TIMESTAMP(3),
                    org.apache.paimon.types.DataTypes.TIMESTAMP(9),
                    org.apache.paimon.types.DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3),
                    org.apache.paimon.types.DataTypes.BINARY(4),
                    org.apache.paimon.types.DataTypes.VARBINARY(10),
                    org.apache.paimon.types.DataTypes.DECIMAL(18, 4),
                    org.apache.paimon.types.DataTypes.DECIMAL(19, 4),
                    org.apache.paimon.types.DataTypes.DECIMAL(5, 1),
                    org.apache.paimon.types.DataTypes.INT()},
                new String[] {"id", "t0", "t3", "t9", "l3", "b4", "vb", "d18", "d19", "d5", "p"});
        org.apache.paimon.schema.Schema.Builder sb = org.apache.paimon.schema.Schema.newBuilder();
        type.getFields().forEach(f -> sb.column(f.name(), f.type()));
        String db = "ptypes_" + format;
        Path dir = PaimonOracle.createTable(warehouse, db, "t",
                sb.partitionKeys("p").option("file.format", format).build());
        List<String> expected = new ArrayList<>();
        for (int commit = 0; commit < 3; commit++) {
            List<org.apache.paimon.data.GenericRow> rows = new ArrayList<>();
            for (int k = 1; k <= 4; k++) {
                int id = commit * 10 + k;
                java.time.LocalDateTime base = java.time.LocalDateTime.parse("2020-01-01T00:00:00").plusDays(id * 40L);
                java.time.LocalDateTime t0 = base.plusSeconds(id);
                java.time.LocalDateTime t3 = base.plusNanos(id * 1_000_000L);
                java.time.LocalDateTime t9 = base.plusNanos(id * 1_001_001L);
                java.time.Instant l3 = base.plusNanos(id * 2_000_000L).toInstant(java.time.ZoneOffset.UTC);
                byte[] b4 = {(byte) id, 0, 0, (byte) -id};
                byte[] vb = java.util.Arrays.copyOf(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9}, k);
                java.math.BigDecimal d18 = new java.math.BigDecimal("12345678901234.5678").add(java.math.BigDecimal.valueOf(id));
                java.math.BigDecimal d19 = new java.math.BigDecimal("-123456789012345.6789").subtract(java.math.BigDecimal.valueOf(id));
                java.math.BigDecimal d5 = java.math.BigDecimal.valueOf(id * 11L - 100, 1);
                boolean nulls = k == 4;
                rows.add(PaimonOracle.row(type, id, nulls ? null : t0, nulls ? null : t3, nulls ? null : t9,
                        nulls ? null : l3, nulls ? null : b4, nulls ? null : vb, nulls ? null : d18,
                        nulls ? null : d19, nulls ? null : d5, commit % 2 == 0 ? 1 : 2));
                expected.add(io.lagoon.it.oracle.CanonicalValues.fields(List.of("id", "t0", "t3", "t9", "l3", "b4",
                        "vb", "d18", "d19", "d5", "p"), nulls
                        ? List.of(String.valueOf(id), "null", "null", "null", "null", "null", "null", "null", "null",
                                "null", String.valueOf(commit % 2 == 0 ? 1 : 2))
                        : List.of(String.valueOf(id), io.lagoon.it.oracle.CanonicalValues.timestamp(t0),
                                io.lagoon.it.oracle.CanonicalValues.timestamp(t3),
                                io.lagoon.it.oracle.CanonicalValues.timestamp(
                                        t9.truncatedTo(java.time.temporal.ChronoUnit.MICROS)),
                                io.lagoon.it.oracle.CanonicalValues.instant(l3),
                                io.lagoon.it.oracle.CanonicalValues.hex(b4), io.lagoon.it.oracle.CanonicalValues.hex(vb),
                                d18.toPlainString(), d19.toPlainString(), d5.toPlainString(),
                                String.valueOf(commit % 2 == 0 ? 1 : 2))));
            }
            PaimonOracle.writeRows(dir, rows);
        }
        java.util.Collections.sort(expected);
        String table = "lake." + db + ".t";
        RowDiff diff = new RowDiff();
        diff.check("Lagoon", expected, SparkRows.renderAll(sql("SELECT * FROM " + table)));
        SparkScanProbe.checkFilters(spark, table, List.of(
                new InteropData.SqlFilter("t0 = TIMESTAMP_NTZ'2020-03-22 00:00:12'", false),
                new InteropData.SqlFilter("t3 > TIMESTAMP_NTZ'2021-06-01 00:00:00'", true),
                new InteropData.SqlFilter("t3 = TIMESTAMP_NTZ'2020-05-11 00:00:00.002'", true),
                // Paimon keeps no stats for TIMESTAMP(9) in Parquet (INT96): correctness only
                new InteropData.SqlFilter("t9 >= TIMESTAMP_NTZ'2022-01-01 00:00:00'", false),
                new InteropData.SqlFilter("t9 < TIMESTAMP_NTZ'2020-04-01 00:00:00'", false),
                new InteropData.SqlFilter("l3 <= TIMESTAMP'2020-07-01 00:00:00'", true),
                new InteropData.SqlFilter("l3 = TIMESTAMP'2020-06-30 00:00:00.006'", false),
                new InteropData.SqlFilter("b4 = X'0D0000F3'", false),
                new InteropData.SqlFilter("vb = X'0102'", false),
                new InteropData.SqlFilter("d18 = CAST('12345678901246.5678' AS DECIMAL(18,4))", true),
                new InteropData.SqlFilter("d18 > CAST('12345678901250' AS DECIMAL(18,4))", true),
                new InteropData.SqlFilter("d19 < CAST('-123456789012365' AS DECIMAL(19,4))", true),
                new InteropData.SqlFilter("d19 = CAST('-123456789012347.6789' AS DECIMAL(19,4))", true),
                new InteropData.SqlFilter("d5 <= CAST('-7.8' AS DECIMAL(5,1))", true),
                new InteropData.SqlFilter("d5 IS NULL", false),
                new InteropData.SqlFilter("p = 2", true),
                new InteropData.SqlFilter("p = 1 AND t3 < TIMESTAMP_NTZ'2020-06-01 00:00:00'", true)), diff);
        assertEquals(List.of(), diff.problems());
    }

    /**
     * Paimon 1.x writes dense stats when some columns have none (nested ones): the stats rows hold
     * only the columns {@code _VALUE_STATS_COLS} lists. A reader that maps them by position over the
     * schema reads the stats of {@code b} as those of {@code a} here and prunes the file holding
     * {@code a = 2}.
     */
    @org.junit.jupiter.api.Test
    void denseStatsAfterANestedColumn() {
        org.apache.paimon.types.RowType type = org.apache.paimon.types.RowType.of(
                new org.apache.paimon.types.DataType[] {
                    org.apache.paimon.types.DataTypes.INT(),
                    org.apache.paimon.types.DataTypes.ARRAY(org.apache.paimon.types.DataTypes.INT()),
                    org.apache.paimon.types.DataTypes.INT(), org.apache.paimon.types.DataTypes.INT(),
                    org.apache.paimon.types.DataTypes.STRING()},
                new String[] {"id", "arr", "a", "b", "s"});
        org.apache.paimon.schema.Schema.Builder sb = org.apache.paimon.schema.Schema.newBuilder();
        type.getFields().forEach(f -> sb.column(f.name(), f.type()));
        Path dir = PaimonOracle.createTable(warehouse, "dense", "t", sb.build());
        PaimonOracle.writeRows(dir, List.of(
                PaimonOracle.row(type, 1, List.of(1), 1, 101, "x1"),
                PaimonOracle.row(type, 2, List.of(2), 2, 102, "x2"),
                PaimonOracle.row(type, 3, List.of(), 3, 103, "x3")));
        PaimonOracle.writeRows(dir, List.of(
                PaimonOracle.row(type, 4, null, 50, 1, "y4"),
                PaimonOracle.row(type, 5, List.of(5), 60, 2, "y5")));
        for (org.apache.paimon.io.DataFileMeta f : PaimonTables.dataFiles(dir)) {
            assertEquals(List.of("id", "a", "b", "s"), f.valueStatsCols(), "Paimon 1.3.1 wrote dense stats");
        }
        RowDiff diff = new RowDiff();
        SparkScanProbe.checkFilters(spark, "lake.dense.t", List.of(
                new InteropData.SqlFilter("a = 2", true),
                new InteropData.SqlFilter("a >= 50", true),
                new InteropData.SqlFilter("b = 102", true),
                new InteropData.SqlFilter("b < 100", true),
                new InteropData.SqlFilter("s = 'x2'", true),
                new InteropData.SqlFilter("s > 'y'", true),
                new InteropData.SqlFilter("id = 5", true)), diff);
        assertEquals(List.of(), diff.problems());
    }

    /**
     * Paimon's ORC files take min/max from ORC's column statistics, which report NaN as the min of a
     * float column whose first value is NaN. Such a min proves nothing; a reader that compares
     * against it skips files holding matching rows ({@code f < 0} below).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"parquet", "orc"})
    void nanInPaimonStats(String format) {
        org.apache.paimon.types.RowType type = org.apache.paimon.types.RowType.of(
                new org.apache.paimon.types.DataType[] {org.apache.paimon.types.DataTypes.INT(),
                    org.apache.paimon.types.DataTypes.FLOAT(), org.apache.paimon.types.DataTypes.DOUBLE()},
                new String[] {"id", "f", "d"});
        org.apache.paimon.schema.Schema.Builder sb = org.apache.paimon.schema.Schema.newBuilder();
        type.getFields().forEach(f -> sb.column(f.name(), f.type()));
        Path dir = PaimonOracle.createTable(warehouse, "nan_" + format, "t", sb.option("file.format", format).build());
        PaimonOracle.writeRows(dir, List.of(
                PaimonOracle.row(type, 1, Float.NaN, Double.NaN),
                PaimonOracle.row(type, 2, -5f, -5.0),
                PaimonOracle.row(type, 3, 7f, 7.0)));
        PaimonOracle.writeRows(dir, List.of(PaimonOracle.row(type, 4, 1f, 1.0)));
        RowDiff diff = new RowDiff();
        SparkScanProbe.checkFilters(spark, "lake.nan_" + format + ".t", List.of(
                new InteropData.SqlFilter("f < CAST(0 AS FLOAT)", false),
                new InteropData.SqlFilter("f = CAST(-5 AS FLOAT)", false),
                new InteropData.SqlFilter("f > CAST(100 AS FLOAT)", false),
                new InteropData.SqlFilter("isnan(f)", false),
                new InteropData.SqlFilter("d < CAST(0 AS DOUBLE)", false),
                new InteropData.SqlFilter("d <= CAST(-5 AS DOUBLE)", false),
                new InteropData.SqlFilter("d > CAST(100 AS DOUBLE)", false)), diff);
        assertEquals(List.of(), diff.problems());
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        String m = String.valueOf(t.getMessage());
        return t.getClass().getSimpleName() + ": " + (m.length() > 300 ? m.substring(0, 300) : m);
    }

    /** The Spark types Lagoon gives Paimon's columns: the DDL types, CHAR/VARCHAR as STRING. */
    static List<String> expectedSparkTypes() {
        List<String> out = new ArrayList<>();
        for (InteropData.Column c : InteropData.COLUMNS) {
            String t = c.kind() == InteropData.Kind.CHAR || c.kind() == InteropData.Kind.VARCHAR
                    ? "string" : c.sparkType().toLowerCase(java.util.Locale.ROOT);
            out.add(c.name() + " " + t);
        }
        return out;
    }

    static List<String> sparkTypes(String table) {
        List<String> out = new ArrayList<>();
        for (StructField f : spark.table(table).schema().fields()) {
            out.add(f.name() + " " + f.dataType().catalogString());
        }
        return out;
    }
}
