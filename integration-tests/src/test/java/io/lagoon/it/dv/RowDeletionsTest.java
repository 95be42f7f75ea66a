package io.lagoon.it.dv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.catalog.FileSystemCatalog;
import io.lagoon.core.catalog.Identifier;
import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.deletionvectors.DeletionVectorIndex;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The core operation row-level DML builds on: deleting rows of an append table by file and
 * position. Vectors merge across commits, Lagoon's SQL reads and Paimon 1.3.1 read the same rows,
 * and bad input changes nothing.
 */
@RequiresPaimon131
class RowDeletionsTest extends LagoonSparkTest {

    private static FileStoreTable table(String db) throws IOException {
        FileSystemCatalog catalog = new FileSystemCatalog(new FileIO(new Configuration()),
                new org.apache.hadoop.fs.Path(warehouse.toUri()));
        return catalog.loadTable(new Identifier(db, "t"));
    }

    /** Rows of the live files as (file, position, rendered row), in file order. */
    private static List<String[]> rowsByPosition(FileStoreTable t) throws IOException {
        List<String[]> out = new ArrayList<>();
        for (ManifestEntry e : LiveFiles.read(t.manifests(), t.snapshots().latest().orElseThrow())) {
            String path = new org.apache.hadoop.fs.Path(t.dir(), "bucket-" + e.bucket + "/" + e.file.fileName).toString();
            List<Row> rows = e.file.fileName.endsWith(".orc") ? spark.read().orc(path).collectAsList()
                    : spark.read().parquet(path).collectAsList();
            for (int i = 0; i < rows.size(); i++) {
                out.add(new String[] {e.file.fileName, Integer.toString(i), "id=" + rows.get(i).getInt(0) + ", v=" + rows.get(i).getString(1)});
            }
        }
        return out;
    }

    private static List<String> expected(List<String[]> rows, Set<String> deleted) {
        List<String> out = new ArrayList<>();
        for (String[] r : rows) if (!deleted.contains(r[0] + "#" + r[1])) out.add(r[2]);
        Collections.sort(out);
        return out;
    }

    private static List<String> lagoon(String db) {
        List<String> out = new ArrayList<>(SparkRows.renderAll(sql("SELECT * FROM lake." + db + ".t")));
        Collections.sort(out);
        return out;
    }

    @ParameterizedTest(name = "{0}, bitmap64 {1}")
    @CsvSource({"parquet, false", "parquet, true"})
    void deletedPositionsDisappearForLagoonAndPaimonAndMergeAcrossCommits(String format, boolean bitmap64) throws Exception {
        String db = "rowdel_" + format + bitmap64;
        sql("CREATE NAMESPACE lake." + db);
        sql("CREATE TABLE lake." + db + ".t (id INT, v STRING) TBLPROPERTIES ('deletion-vectors.enabled' = 'true', "
                + "'deletion-vectors.bitmap64' = '" + bitmap64 + "', 'file.format' = '" + format + "')");
        sql("INSERT INTO lake." + db + ".t SELECT CAST(id AS INT), concat('a', id) FROM range(0, 50)");
        sql("INSERT INTO lake." + db + ".t SELECT CAST(id AS INT), concat('b', id) FROM range(50, 80)");
        FileStoreTable t = table(db);
        List<String[]> rows = rowsByPosition(t);
        List<String> files = new ArrayList<>(new TreeSet<>(rows.stream().map(r -> r[0]).toList()));
        assertTrue(files.size() >= 2, "several files: " + files);
        Set<String> deleted = new TreeSet<>();

        t.newRowDelta().deletePositions(Map.of(files.get(0), new long[] {0, 3, 5}, files.get(1), new long[] {1})).commit();
        for (String d : List.of(files.get(0) + "#0", files.get(0) + "#3", files.get(0) + "#5", files.get(1) + "#1")) deleted.add(d);
        assertEquals(expected(rows, deleted), lagoon(db));

        // The same file again: its vector grows (a repeated position changes nothing).
        t.newRowDelta().deletePositions(Map.of(files.get(0), new long[] {3, 7})).commit();
        deleted.add(files.get(0) + "#7");
        List<String> want = expected(rows, deleted);
        assertEquals(want, lagoon(db));
        List<String> paimon = new ArrayList<>(PaimonOracle.readRows(warehouse.resolve(db + ".db").resolve("t")));
        Collections.sort(paimon);
        assertEquals(want, paimon, "Paimon reads Lagoon's vectors");
        DeletionVectorIndex index = DeletionVectorIndex.of(t, t.snapshots().latest().orElseThrow());
        assertEquals(2, index.size(), "one vector per data file");

        // An overwrite replaces every file: their vectors leave the index manifest with them.
        sql("INSERT OVERWRITE lake." + db + ".t SELECT CAST(id AS INT), 'c' FROM range(0, 3)");
        assertTrue(DeletionVectorIndex.of(t, t.snapshots().latest().orElseThrow()).isEmpty());
        assertEquals(List.of("id=0, v=c", "id=1, v=c", "id=2, v=c"), lagoon(db));
        List<String> paimonAfter = new ArrayList<>(PaimonOracle.readRows(warehouse.resolve(db + ".db").resolve("t")));
        Collections.sort(paimonAfter);
        assertEquals(lagoon(db), paimonAfter);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"out of range", "not live", "no option"})
    void badInputIsRefusedAndChangesNothing(String mistake) throws Exception {
        String db = "rowdelbad" + mistake.replace(" ", "");
        sql("CREATE NAMESPACE lake." + db);
        String options = mistake.equals("no option") ? "" : " TBLPROPERTIES ('deletion-vectors.enabled' = 'true')";
        sql("CREATE TABLE lake." + db + ".t (id INT, v STRING)" + options);
        sql("INSERT INTO lake." + db + ".t VALUES (1, 'a'), (2, 'b')");
        FileStoreTable t = table(db);
        long before = t.snapshots().latest().orElseThrow().id;
        String file = rowsByPosition(t).get(0)[0];
        Throwable e;
        switch (mistake) {
            case "out of range":
                e = assertThrows(IllegalArgumentException.class, () -> t.newRowDelta().deletePositions(Map.of(file, new long[] {2})).commit());
                assertTrue(e.getMessage().contains(file) && e.getMessage().contains("position 2"), e.getMessage());
                break;
            case "not live":
                e = assertThrows(CommitConflictException.class,
                        () -> t.newRowDelta().deletePositions(Map.of("data-gone.parquet", new long[] {0})).commit());
                assertTrue(e.getMessage().contains("data-gone.parquet"), e.getMessage());
                break;
            default:
                e = assertThrows(IllegalArgumentException.class, () -> t.newRowDelta().deletePositions(Map.of(file, new long[] {0})).commit());
                assertTrue(e.getMessage().contains("deletion-vectors.enabled"), e.getMessage());
        }
        assertEquals(before, t.snapshots().latest().orElseThrow().id);
        assertEquals(List.of("id=1, v=a", "id=2, v=b"), lagoon(db));
        assertTrue(!java.nio.file.Files.exists(warehouse.resolve(db + ".db/t/index"))
                || java.nio.file.Files.list(warehouse.resolve(db + ".db/t/index")).findAny().isEmpty(), "no index file left");
    }
}
