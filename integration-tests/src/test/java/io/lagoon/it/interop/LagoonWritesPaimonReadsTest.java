package io.lagoon.it.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import org.apache.paimon.Snapshot;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataField;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Interop (a): a partitioned table with every type Lagoon supports, created and written by Lagoon
 * through Spark SQL over several commits (appends and static partition overwrites), in Parquet and
 * in ORC, is read by the real Paimon 1.3.1 (Java API) with exactly the rows Lagoon returns and the
 * test inserted, at the latest snapshot and at every earlier one. Paimon accepts Lagoon's snapshot
 * JSON, schema and manifests (its snapshot manager and schema are checked), Paimon's decoding of
 * each file's stats matches the file's rows, and Paimon's stats-based pruning with filters on every
 * column type never drops a matching row (and does prune).
 */
@RequiresPaimon131
class LagoonWritesPaimonReadsTest extends LagoonSparkTest {

    /**
     * Rows come back as java.time values: java.sql.Date/Timestamp use the hybrid Julian calendar,
     * which has no 1582-10-10 and shifts a 1500-06-01 timestamp by ten days when rendered.
     */
    @BeforeAll
    static void java8Api() {
        spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
    }

    private static Path tableDir(String db, String table) {
        return warehouse.resolve(db + ".db").resolve(table);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"parquet", "orc"})
    void paimonReadsWhatLagoonWrote(String format) {
        String db = "lw_" + format;
        String table = "lake." + db + ".all_types";
        sql("CREATE NAMESPACE lake." + db);
        sql(InteropData.createTableSql(table, Map.of("file.format", format, "write-only", "true")));
        Path dir = tableDir(db, "all_types");
        InteropData.Writer lagoon = InteropData.sqlWriter(LagoonSparkTest::sql, table);

        List<List<Object>> current = new ArrayList<>();
        List<List<String>> expectedPerSnapshot = new ArrayList<>();
        RowDiff diff = new RowDiff();
        for (InteropData.Step step : InteropData.steps(format, false)) {
            lagoon.apply(step);
            current = step.apply(current);
            List<String> expected = InteropData.render(current);
            expectedPerSnapshot.add(expected);
            diff.check("Lagoon after " + step, expected, SparkRows.renderAll(sql("SELECT * FROM " + table)));
            diff.check("Paimon 1.3.1 after " + step, expected, PaimonOracle.readRows(dir));
        }

        // Every snapshot Lagoon published reads back in Paimon (time travel through Lagoon's manifests).
        for (int i = 0; i < expectedPerSnapshot.size() - 1; i++) {
            diff.check("Paimon at snapshot " + (i + 1), expectedPerSnapshot.get(i), PaimonOracle.readRows(dir, i + 1));
        }
        for (String p : PaimonTables.statsProblems(dir)) {
            diff.problem("stats decoded by Paimon: " + p);
        }
        checkPaimonFilters(dir, diff);
        assertEquals(List.of(), diff.problems());
        checkSnapshotsAndSchema(dir, format, expectedPerSnapshot);
    }

    /** Paimon's snapshot manager and schema accept what Lagoon wrote. */
    private static void checkSnapshotsAndSchema(Path dir, String format, List<List<String>> expectedPerSnapshot) {
        FileStoreTable t = PaimonOracle.openTable(dir);
        int n = expectedPerSnapshot.size();
        assertEquals(n, t.snapshotManager().latestSnapshotId());
        assertEquals(1L, t.snapshotManager().earliestSnapshotId());
        List<String> kinds = new ArrayList<>();
        long previousTotal = 0;
        for (long id = 1; id <= n; id++) {
            Snapshot s = t.snapshotManager().snapshot(id);
            kinds.add(s.commitKind().name());
            assertEquals(id, s.id());
            assertEquals(0L, s.schemaId());
            assertEquals(3, s.version());
            assertEquals(Long.MAX_VALUE, s.commitIdentifier(), "batch commits use Long.MAX_VALUE");
            long total = expectedPerSnapshot.get((int) id - 1).size();
            assertEquals(total, s.totalRecordCount(), "totalRecordCount of snapshot " + id);
            assertEquals(total - previousTotal, s.deltaRecordCount(), "deltaRecordCount of snapshot " + id);
            previousTotal = total;
            assertTrue(s.timeMillis() > 0);
            // Paimon's reader rejects a manifest list whose recorded size is smaller than the file.
            assertTrue(s.baseManifestListSize() == null || s.baseManifestListSize() > 0);
        }
        assertEquals(InteropData.stepCommitKinds(), kinds);
        Snapshot latest = t.snapshotManager().latestSnapshot();
        assertEquals(n, latest.id());

        assertEquals(InteropData.PARTITION_KEYS, t.schema().partitionKeys());
        assertEquals(List.of(), t.schema().primaryKeys());
        assertEquals(format, t.options().get("file.format"));
        List<String> types = new ArrayList<>();
        List<String> expectedTypes = new ArrayList<>();
        for (DataField f : t.rowType().getFields()) {
            types.add(f.name() + " " + f.type().asSQLString());
        }
        for (DataField f : PaimonTables.ROW_TYPE.getFields()) {
            expectedTypes.add(f.name() + " " + f.type().asSQLString());
        }
        assertEquals(expectedTypes, types, "Paimon types of the Spark columns");
        // Data files are where Paimon looks for them: it rebuilt every path from the partition rows.
        int files = 0;
        for (Iterator<org.apache.paimon.io.DataFileMeta> it = PaimonTables.dataFiles(dir).iterator(); it.hasNext(); ) {
            org.apache.paimon.io.DataFileMeta f = it.next();
            files++;
            assertEquals(0, f.level());
            assertTrue(f.fileName().endsWith("." + format), f.fileName());
            assertEquals(0L, f.schemaId());
        }
        assertTrue(files > 10, "expected many data files, got " + files);
    }

    /**
     * Paimon's ReadBuilder.withFilter prunes manifests, files and row groups with our stats; the
     * rows it still returns, re-checked with the predicate, must be every matching row.
     */
    private static void checkPaimonFilters(Path dir, RowDiff failures) {
        int totalFiles = PaimonTables.dataFiles(dir).size();
        for (PaimonTables.NamedPredicate p : PaimonTables.predicates()) {
            List<String> exact = PaimonTables.exactMatches(dir, p.predicate());
            PaimonTables.FilteredRead read = PaimonTables.filteredRead(dir, p.predicate());
            if (!exact.equals(read.rows())) {
                List<String> missing = new ArrayList<>(exact);
                missing.removeAll(read.rows());
                failures.problem(p + ": Paimon's filtered read lost " + missing.size() + " of " + exact.size()
                        + " rows, e.g. " + (missing.isEmpty() ? "-" : missing.get(0)));
            }
            if (p.selective() && read.filesPlanned() >= totalFiles) {
                failures.problem(p + ": Paimon planned all " + totalFiles + " files (stats did not prune)");
            }
        }
    }

    /** TRUNCATE is an OVERWRITE commit that leaves no file; Paimon agrees, before and after. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"parquet", "orc"})
    void truncateThenInsert(String format) {
        String db = "tr_" + format;
        String table = "lake." + db + ".t";
        sql("CREATE NAMESPACE lake." + db);
        sql(InteropData.createTableSql(table, Map.of("file.format", format)));
        Path dir = tableDir(db, "t");
        sql(InteropData.insertSql(table, InteropData.rows(1, 10)));
        sql("TRUNCATE TABLE " + table);
        RowDiff diff = new RowDiff();
        diff.check("Paimon after TRUNCATE", List.of(), PaimonOracle.readRows(dir));
        diff.check("Lagoon after TRUNCATE", List.of(), SparkRows.renderAll(sql("SELECT * FROM " + table)));
        sql(InteropData.insertSql(table, InteropData.rows(11, 20)));
        List<String> expected = InteropData.render(InteropData.rows(11, 20));
        diff.check("Paimon after re-insert", expected, PaimonOracle.readRows(dir));
        diff.check("Lagoon after re-insert", expected, SparkRows.renderAll(sql("SELECT * FROM " + table)));
        diff.check("Paimon at snapshot 1", InteropData.render(InteropData.rows(1, 10)), PaimonOracle.readRows(dir, 1));
        diff.check("Paimon at snapshot 2", List.of(), PaimonOracle.readRows(dir, 2));
        assertEquals(List.of(), diff.problems());
        FileStoreTable t = PaimonOracle.openTable(dir);
        assertEquals("OVERWRITE", t.snapshotManager().snapshot(2).commitKind().name());
        assertEquals(0L, t.snapshotManager().snapshot(2).totalRecordCount());
        assertEquals(List.of(), PaimonTables.statsProblems(dir));
    }
}
