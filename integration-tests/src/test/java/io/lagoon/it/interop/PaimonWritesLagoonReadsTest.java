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
        for (InteropData.Step step : InteropData.steps()) {
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
