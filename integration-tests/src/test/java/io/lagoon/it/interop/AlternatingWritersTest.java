package io.lagoon.it.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Interop (c): one table written alternately by Lagoon (Spark SQL) and by Paimon 1.3.1 (Java API),
 * appends and partition overwrites, created by either side, stays readable by both with the same
 * rows after every commit. Each side builds its snapshot on the other's manifests: Lagoon's
 * overwrites delete files Paimon wrote (rewriting Paimon's manifest entries), and Paimon, told to
 * merge manifests early ({@code manifest.merge-min-count}), rewrites Lagoon's entries. Afterwards
 * Paimon's stats check, Paimon's filtered reads and Lagoon's filtered queries all agree.
 */
@RequiresPaimon131
class AlternatingWritersTest extends LagoonSparkTest {

    @BeforeAll
    static void java8Api() {
        spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("lagoon", "parquet"), Arguments.of("paimon", "parquet"),
                Arguments.of("lagoon", "orc"), Arguments.of("paimon", "orc"));
    }

    @ParameterizedTest(name = "created by {0}, {1}")
    @MethodSource("cases")
    void bothWritersTakeTurns(String creator, String format) {
        String db = "alt_" + creator + "_" + format;
        String table = "lake." + db + ".t";
        Map<String, String> options = Map.of("file.format", format, "manifest.merge-min-count", "3", "write-only", "true");
        Path dir;
        if (creator.equals("lagoon")) {
            sql("CREATE NAMESPACE lake." + db);
            sql(InteropData.createTableSql(table, options));
            dir = warehouse.resolve(db + ".db").resolve("t");
        } else {
            dir = PaimonOracle.createTable(warehouse, db, "t", PaimonTables.schema(options));
        }
        InteropData.Writer lagoon = InteropData.sqlWriter(LagoonSparkTest::sql, table);
        InteropData.Writer paimon = PaimonTables.writer(dir);
        List<InteropData.Writer> turns = creator.equals("lagoon") ? List.of(lagoon, paimon) : List.of(paimon, lagoon);

        RowDiff diff = new RowDiff();
        List<List<Object>> current = new ArrayList<>();
        List<InteropData.Step> steps = InteropData.steps(format, false);
        List<String> writers = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            InteropData.Step step = steps.get(i);
            InteropData.Writer w = turns.get(i % 2);
            String who = w == lagoon ? "Lagoon" : "Paimon";
            writers.add(who);
            try {
                w.apply(step);
            } catch (Exception e) {
                diff.problem(who + " could not " + step + ": " + PaimonWritesLagoonReadsTest.rootMessage(e));
                break;
            }
            current = step.apply(current);
            List<String> expected = InteropData.render(current);
            String after = " after " + who + " " + step;
            diff.check("Paimon 1.3.1" + after, expected, PaimonOracle.readRows(dir));
            try {
                diff.check("Lagoon" + after, expected, SparkRows.renderAll(sql("SELECT * FROM " + table)));
            } catch (Exception e) {
                diff.problem("Lagoon" + after + ": " + PaimonWritesLagoonReadsTest.rootMessage(e));
            }
        }
        assertEquals(List.of(), diff.problems(), "writers " + writers);

        FileStoreTable t = PaimonOracle.openTable(dir);
        List<String> kinds = new ArrayList<>();
        for (long id = 1; id <= t.snapshotManager().latestSnapshotId(); id++) {
            kinds.add(t.snapshotManager().snapshot(id).commitKind().name());
        }
        assertEquals(InteropData.stepCommitKinds(), kinds, "one snapshot per commit, whoever wrote it");
        assertEquals((long) current.size(), t.snapshotManager().latestSnapshot().totalRecordCount());

        for (String p : PaimonTables.statsProblems(dir)) {
            diff.problem("stats decoded by Paimon: " + p);
        }
        int totalFiles = PaimonTables.dataFiles(dir).size();
        for (PaimonTables.NamedPredicate p : PaimonTables.predicates()) {
            PaimonTables.FilteredRead read = PaimonTables.filteredRead(dir, p.predicate());
            diff.check("Paimon filter " + p, PaimonTables.exactMatches(dir, p.predicate()), read.rows());
            if (p.selective() && read.filesPlanned() >= totalFiles) {
                diff.problem("Paimon filter " + p + ": planned all " + totalFiles + " files");
            }
        }
        SparkScanProbe.checkFilters(spark, table, InteropData.sqlFilters(), diff);
        assertEquals(List.of(), diff.problems());
    }
}
