package io.lagoon.it.incremental;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.ManifestFileMeta;
import io.lagoon.core.snapshot.CommitKind;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.types.DataTypes;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Writes into a {@code 'changelog-producer'='input'} table leave changelog files, so a Flink job
 * streaming the table (Paimon's streaming reader) sees every change Lagoon's INSERT, UPDATE,
 * DELETE and MERGE made, with its row kind, one snapshot at a time. Overwrites commit no
 * changelog, as Paimon's do. Producers whose changelog comes from compaction are refused for
 * writes and compaction alike, leaving the table unchanged.
 */
@RequiresPaimon131
class InputChangelogWriteTest extends LagoonSparkTest {

  @BeforeAll
  static void withProcedures() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE lake.cl");
  }

  private static FileStoreTable core(Path dir, String name) throws IOException {
    return FileStoreTable.load(new FileIO(new Configuration()), new org.apache.hadoop.fs.Path(dir.toUri()), name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"fixed", "dynamic", "dv"})
  void paimonsStreamingReaderSeesEveryChangeLagoonWrote(String shape) throws Exception {
    String t = "c_" + shape;
    String q = "lake.cl." + t;
    String props = "'primary-key'='id', 'changelog-producer'='input'"
        + (shape.equals("fixed") ? ", 'bucket'='2'" : shape.equals("dv") ? ", 'bucket'='2', 'deletion-vectors.enabled'='true'" : "");
    sql("CREATE TABLE " + q + " (id INT NOT NULL, v STRING) TBLPROPERTIES (" + props + ")");
    Path dir = warehouse.resolve("cl.db").resolve(t);

    sql("INSERT INTO " + q + " VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    sql("INSERT INTO " + q + " VALUES (1, 'a2'), (4, 'd')");
    sql("UPDATE " + q + " SET v = 'b2' WHERE id = 2");
    sql("DELETE FROM " + q + " WHERE id = 3");
    sql("MERGE INTO " + q + " t USING (SELECT 4 AS id, 'd2' AS v UNION ALL SELECT 5, 'e') s ON t.id = s.id "
        + "WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT *");
    sql("UPDATE " + q + " SET id = 6 WHERE id = 5");
    sql("MERGE INTO " + q + " t USING (SELECT 1 AS id) s ON t.id = s.id WHEN MATCHED THEN DELETE");

    // Each statement's changes, as the written records (an upsert writes the new row). Every
    // retraction, of a DELETE, of an UPDATE that moves a row to another key, of a MERGE DELETE,
    // carries the whole row it removes.
    List<List<String>> expected = List.of(
        List.of("+I id=1, v=a", "+I id=2, v=b", "+I id=3, v=c"),
        List.of("+I id=1, v=a2", "+I id=4, v=d"),
        List.of("+U id=2, v=b2"),
        List.of("-D id=3, v=c"),
        List.of("+I id=5, v=e", "+U id=4, v=d2"),
        List.of("+I id=6, v=e", "-D id=5, v=e"),
        List.of("-D id=1, v=a2"));
    List<List<String>> streamed = sortedEach(PaimonOracle.streamChanges(dir, 1));
    assertEquals(expected, streamed, "Paimon's streaming reader, one snapshot at a time");

    // Lagoon reads the same changes from the changelog files, with their kinds.
    long latest = PaimonOracle.latestSnapshotId(dir).orElseThrow();
    List<String> audit = new ArrayList<>();
    for (Row r : spark.read().option("incremental-between", "0," + latest).table("lake.cl.`" + t + "$audit_log`").collectAsList()) {
      audit.add(r.getString(0) + " id=" + r.getInt(1) + ", v=" + r.getString(2));
    }
    audit.sort(null);
    assertEquals(flatSorted(expected), audit);
    assertEquals(PaimonOracle.readRows(dir), SparkRows.renderAll(spark.table(q)));
    assertEquals(List.of("id=2, v=b2", "id=4, v=d2", "id=6, v=e"), SparkRows.renderAll(spark.table(q)));

    FileStoreTable table = core(dir, t);
    for (long id : table.snapshots().listIds()) {
      Snapshot s = table.snapshots().snapshot(id);
      if (s.commitKind == CommitKind.APPEND) {
        assertNotNull(s.changelogManifestList, "snapshot " + id + " keeps its changelog");
        assertTrue(s.changelogRecordCount > 0, "snapshot " + id);
      } else {
        assertNull(s.changelogManifestList, "a " + s.commitKind + " snapshot has no changes of its own");
      }
    }

    // An overwrite commits no changelog, as Paimon's: streaming readers skip it.
    sql("INSERT OVERWRITE " + q + " VALUES (9, 'z')");
    Snapshot overwrite = core(dir, t).snapshots().latest().orElseThrow();
    assertEquals(CommitKind.OVERWRITE, overwrite.commitKind);
    assertNull(overwrite.changelogManifestList);
    Set<String> unreferenced = changelogFilesOnDisk(dir);
    unreferenced.removeAll(referencedChangelog(core(dir, t)));
    assertEquals(Set.of(), unreferenced, "no changelog file is left unreferenced");
    sql("INSERT INTO " + q + " VALUES (10, 'y')");
    List<List<String>> after = sortedEach(PaimonOracle.streamChanges(dir, 1));
    assertEquals(expected.size() + 1, after.size());
    assertEquals(List.of("+I id=10, v=y"), after.get(after.size() - 1));

    // Expiry takes the changelog files of the snapshots it removes, and only those.
    int before = changelogFilesOnDisk(dir).size();
    sql("CALL lake.sys.expire_snapshots(table => 'cl." + t + "', retain_max => 2)");
    Set<String> left = changelogFilesOnDisk(dir);
    assertEquals(referencedChangelog(core(dir, t)), left);
    assertTrue(left.size() < before, before + " -> " + left);
    assertEquals(PaimonOracle.readRows(dir), SparkRows.renderAll(spark.table(q)));
  }

  @Test
  void producersThatNeedCompactionAreRefusedAndTheTableIsLeftAsItWas() throws Exception {
    Exception create = assertThrows(Exception.class, () -> sql("CREATE TABLE lake.cl.bad (id INT NOT NULL, v STRING) "
        + "TBLPROPERTIES ('primary-key'='id', 'bucket'='1', 'changelog-producer'='lookup')"));
    assertTrue(create.getMessage().contains("'changelog-producer'='lookup'") && create.getMessage().contains("'input'"),
        create.getMessage());

    sql("CREATE TABLE lake.cl.plain (id INT NOT NULL, v STRING) TBLPROPERTIES ('primary-key'='id', 'bucket'='1')");
    Exception alter = assertThrows(Exception.class,
        () -> sql("ALTER TABLE lake.cl.plain SET TBLPROPERTIES ('changelog-producer'='full-compaction')"));
    assertTrue(alter.getMessage().contains("full-compaction"), alter.getMessage());
    sql("ALTER TABLE lake.cl.plain SET TBLPROPERTIES ('changelog-producer'='input')");
    sql("INSERT INTO lake.cl.plain VALUES (1, 'a')");
    assertNotNull(core(warehouse.resolve("cl.db").resolve("plain"), "plain").snapshots().latest().orElseThrow()
        .changelogManifestList, "the first write after the change keeps a changelog");

    // A table Paimon writes with the lookup producer: Lagoon neither writes nor compacts it.
    Path dir = PaimonOracle.createTable(warehouse, "cl", "lookup", org.apache.paimon.schema.Schema.newBuilder()
        .column("id", DataTypes.INT().notNull()).column("v", DataTypes.STRING()).primaryKey("id").option("bucket", "1")
        .option("changelog-producer", "lookup").build());
    PaimonOracle.writeRows(dir, List.of(PaimonOracle.row(1, "a"), PaimonOracle.row(2, "b")));
    PaimonOracle.writeRows(dir, List.of(PaimonOracle.row(2, "b2")));
    long snapshot = PaimonOracle.latestSnapshotId(dir).orElseThrow();
    List<String> rows = PaimonOracle.readRows(dir);
    Exception write = assertThrows(Exception.class, () -> sql("INSERT INTO lake.cl.lookup VALUES (3, 'c')"));
    assertTrue(write.getMessage().contains("'changelog-producer'='lookup'"), write.getMessage());
    Exception delete = assertThrows(Exception.class, () -> sql("DELETE FROM lake.cl.lookup WHERE id = 1"));
    assertTrue(delete.getMessage().contains("'changelog-producer'='lookup'"), delete.getMessage());
    Exception compact = assertThrows(Exception.class,
        () -> sql("CALL lake.sys.compact(table => 'cl.lookup', compact_strategy => 'full')"));
    assertTrue(compact.getMessage().contains("Cannot compact") && compact.getMessage().contains("lookup"),
        compact.getMessage());
    assertEquals(snapshot, (long) PaimonOracle.latestSnapshotId(dir).orElseThrow(), "nothing committed");
    assertEquals(rows, PaimonOracle.readRows(dir));
    assertEquals(rows, SparkRows.renderAll(spark.table("lake.cl.lookup")));
  }

  /**
   * A retraction's changelog record holds the whole removed row, nested and NOT NULL columns too,
   * whether the scan under the statement returns batches or rows; and {@code _row_before}, the
   * metadata column that carries it, reads as the row itself.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void retractionsCarryTheWholeRowFromBatchesAndRows(boolean vectorized) throws Exception {
    String t = "whole_" + vectorized;
    String q = "lake.cl." + t;
    sql("CREATE TABLE " + q + " (id INT NOT NULL, n BIGINT NOT NULL, s STRUCT<a: INT, b: STRING>, tags ARRAY<STRING>) "
        + "TBLPROPERTIES ('primary-key'='id', 'bucket'='2', 'changelog-producer'='input')");
    Path dir = warehouse.resolve("cl.db").resolve(t);
    sql("INSERT INTO " + q + " VALUES (1, 10, named_struct('a', 1, 'b', 'x'), array('p')), "
        + "(2, 20, named_struct('a', 2, 'b', 'y'), array('q', 'r')), (3, 30, NULL, NULL)");
    sql("INSERT INTO " + q + " VALUES (3, 31, named_struct('a', 3, 'b', 'z'), array())");
    spark.conf().set("spark.sql.parquet.enableVectorizedReader", Boolean.toString(vectorized));
    try {
      assertEquals(List.of("1,1,x", "2,2,y", "3,3,z"),
          rows("SELECT id, _row_before.s.a, _row_before.s.b FROM " + q + " ORDER BY id"));
      long before = PaimonOracle.latestSnapshotId(dir).orElseThrow();
      sql("MERGE INTO " + q + " t USING (SELECT 1 AS id UNION ALL SELECT 3) s ON t.id = s.id WHEN MATCHED THEN DELETE");
      sql("UPDATE " + q + " SET id = 7 WHERE id = 2");
      List<List<String>> streamed = sortedEach(PaimonOracle.streamChanges(dir, before + 1));
      assertEquals(List.of(
          List.of("-D id=1, n=10, s={a=1, b=x}, tags=[p]", "-D id=3, n=31, s={a=3, b=z}, tags=[]"),
          List.of("+I id=7, n=20, s={a=2, b=y}, tags=[q, r]", "-D id=2, n=20, s={a=2, b=y}, tags=[q, r]")),
          streamed);
      assertEquals(PaimonOracle.readRows(dir), SparkRows.renderAll(spark.table(q)));
    } finally {
      spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
    }
  }

  private static List<List<String>> sortedEach(List<List<String>> batches) {
    List<List<String>> out = new ArrayList<>();
    for (List<String> b : batches) {
      List<String> c = new ArrayList<>(b);
      c.sort(null);
      out.add(c);
    }
    return out;
  }

  /** Every record of a stream's batches, sorted. */
  static List<String> flatSorted(List<List<String>> batches) {
    List<String> out = new ArrayList<>();
    batches.forEach(out::addAll);
    out.sort(null);
    return out;
  }

  private static Set<String> changelogFilesOnDisk(Path dir) throws IOException {
    Set<String> out = new TreeSet<>();
    try (Stream<Path> s = Files.walk(dir)) {
      s.filter(p -> p.getFileName().toString().startsWith("changelog-") && !p.toString().contains("/manifest/"))
          .forEach(p -> out.add(p.getFileName().toString()));
    }
    return out;
  }

  /** The changelog files the table's snapshots list. */
  private static Set<String> referencedChangelog(FileStoreTable table) throws IOException {
    Set<String> out = new TreeSet<>();
    for (long id : table.snapshots().listIds()) {
      Snapshot s = table.snapshots().snapshot(id);
      if (s.changelogManifestList == null) continue;
      for (ManifestFileMeta m : table.manifests().readManifestList(s.changelogManifestList)) {
        for (ManifestEntry e : table.manifests().readManifest(m)) out.add(e.file.fileName);
      }
    }
    return out;
  }
}
