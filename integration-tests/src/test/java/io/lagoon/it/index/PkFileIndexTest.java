package io.lagoon.it.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.scan.ScanPlan;
import io.lagoon.core.scan.ScanPlanner;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * File indexes on primary-key tables: every data file (writes and compactions) gets the table's
 * Bloom filters and bitmaps over its value columns, and scans use them only where that is correct
 * under merge: any filter on a table with deletion vectors (no merge on read); on other tables a
 * filter on key columns per file, and a filter on other columns only to drop a whole key section
 * every file of which it rules out, under deduplicate and first-row (a newer record that the index
 * rules out may shadow an older one it admits). Random predicates after rounds of upserts answer
 * what the merged rows say, and Paimon 1.3.1 reads the tables.
 */
@RequiresPaimon131
class PkFileIndexTest extends LagoonSparkTest {
  private static final String INDEX = "'file-index.bitmap.columns' = 'cat', 'file-index.bloom-filter.columns' = 'k2,v'";

  @BeforeAll
  static void ns() {
    spark.stop();
    spark = newSession(warehouse, java.util.Map.of("spark.sql.extensions",
        "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.pki");
  }

  private static Path dir(String t) {
    return warehouse.resolve("pki.db").resolve(t);
  }

  private static FileStoreTable core(String t) throws Exception {
    return FileStoreTable.load(new FileIO(new Configuration()), new org.apache.hadoop.fs.Path(dir(t).toUri()), "pki." + t);
  }

  private static ScanPlan plan(String t, Filter f) throws Exception {
    FileStoreTable table = core(t);
    return new ScanPlanner(table).plan(table.snapshots().latest().orElseThrow(), List.of(f));
  }

  private static int files(ScanPlan p) {
    return p.splits.stream().mapToInt(s -> s.files.size()).sum();
  }

  private static void create(String t, String props) {
    sql("CREATE TABLE lake.pki." + t + " (k1 INT NOT NULL, k2 STRING NOT NULL, cat STRING, v STRING) TBLPROPERTIES ("
        + "'primary-key' = 'k1,k2', 'bucket' = '1', 'write-only' = 'true', " + INDEX + props + ")");
  }

  @Test
  void everyPrimaryKeyFileCarriesItsIndexesAndPaimonReadsTheTable() throws Exception {
    create("idx", "");
    sql("INSERT INTO lake.pki.idx VALUES (1, 'a', 'x', 'v1'), (2, 'b', 'y', 'v2')");
    sql("INSERT INTO lake.pki.idx VALUES (1, 'a', 'z', 'v3')");
    sql("CALL lake.sys.compact(table => 'pki.idx', compact_strategy => 'full')");
    FileStoreTable t = core("idx");
    List<ManifestEntry> live = new ArrayList<>(LiveFiles.read(t.manifests(), t.snapshots().latest().orElseThrow()));
    assertEquals(1, live.size(), "compacted into one file");
    assertNotNull(live.get(0).file.embeddedIndex, "the compacted file has its indexes too");
    assertEquals(List.of("1,a,z,v3", "2,b,y,v2"), rows("SELECT * FROM lake.pki.idx ORDER BY k1"));
    assertEquals(io.lagoon.it.oracle.SparkRows.renderAll(sql("SELECT * FROM lake.pki.idx")), PaimonOracle.readRows(dir("idx")));
    assertEquals(0, files(plan("idx", new EqualTo("cat", "x"))), "the compacted file holds no 'x' any more");
  }

  @Test
  void aNewerRecordTheIndexRulesOutStillShadowsAnOlderOne() throws Exception {
    create("shadow", "");
    sql("INSERT INTO lake.pki.shadow VALUES (1, 'a', 'old', 'v1'), (2, 'b', 'keep', 'v2')");
    sql("INSERT INTO lake.pki.shadow VALUES (1, 'a', 'new', 'v3')");
    // Both files overlap: 'old' is only in the older file, whose row the newer one replaces.
    assertEquals(2, files(plan("shadow", new EqualTo("cat", "old"))), "one file admits 'old': the section is read");
    assertEquals(List.of(), rows("SELECT k1 FROM lake.pki.shadow WHERE cat = 'old'"));
    assertEquals(List.of("1"), rows("SELECT k1 FROM lake.pki.shadow WHERE cat = 'new'"));
    ScanPlan none = plan("shadow", new EqualTo("cat", "nowhere"));
    assertEquals(0, files(none), "every file of the section rules it out");
    assertEquals(2, none.filesSkippedByIndex);
    // A filter on a key column drops single files: only the first file holds k2 = 'b'.
    assertEquals(1, files(plan("shadow", new EqualTo("k2", "b"))));
    assertEquals(List.of("2,b,keep,v2"), rows("SELECT * FROM lake.pki.shadow WHERE k2 = 'b'"));
  }

  @Test
  void partialUpdateTablesUseIndexesOnKeyColumnsOnly() throws Exception {
    create("pu", ", 'merge-engine' = 'partial-update'");
    sql("INSERT INTO lake.pki.pu VALUES (1, 'a', 'x', NULL), (2, 'b', 'y', 'v2')");
    sql("INSERT INTO lake.pki.pu VALUES (1, 'a', NULL, 'v1')");
    // The merged row (1, a, x, v1) is no file's record: a value filter must not drop any file.
    assertEquals(2, files(plan("pu", new EqualTo("v", "v1"))));
    assertEquals(List.of("1,a,x,v1"), rows("SELECT * FROM lake.pki.pu WHERE cat = 'x' AND v = 'v1'"));
    assertEquals(1, files(plan("pu", new EqualTo("k2", "b"))));
    String explain = sql("EXPLAIN SELECT * FROM lake.pki.pu WHERE cat = 'x' AND k2 = 'a'").first().getString(0);
    assertTrue(explain.contains("fileIndex=[EqualTo(k2,a)]"), explain);
    assertFalse(explain.substring(explain.indexOf("fileIndex=")).startsWith("fileIndex=[EqualTo(cat"), explain);
  }

  /** Upsert rounds, then random predicates: the indexed scan answers what the merged rows say. */
  @Test
  void randomPredicatesAfterUpsertsMatchTheMergedRows() {
    String[][] kinds = {{"dedup", ""}, {"dv", ", 'deletion-vectors.enabled' = 'true'"}, {"first", ", 'merge-engine' = 'first-row'"},
        {"agg", ", 'merge-engine' = 'aggregation', 'fields.v.aggregate-function' = 'max', "
            + "'fields.cat.aggregate-function' = 'last_non_null_value'"}};
    Random r = new Random(3);
    for (String[] kind : kinds) {
      String t = "lake.pki.r_" + kind[0];
      sql("CREATE TABLE " + t + " (k1 INT NOT NULL, k2 STRING NOT NULL, cat STRING, v STRING) TBLPROPERTIES ("
          + "'primary-key' = 'k1,k2', 'bucket' = '2', 'write-only' = 'true', " + INDEX + kind[1] + ")");
      for (int round = 0; round < 5; round++) {
        sql("INSERT INTO " + t + " SELECT CAST(id % 40 AS INT), concat('k', CAST(id % 3 AS STRING)),"
            + " CASE WHEN id % 7 = 0 THEN NULL ELSE concat('c', CAST((id + " + round + ") % 5 AS STRING)) END,"
            + " concat('v', CAST((id * " + (round + 3) + ") % 11 AS STRING)) FROM range(" + (round * 17) + ", "
            + (round * 17 + 60) + ")");
        if (round == 2 && kind[0].equals("dv")) sql("CALL lake.sys.compact(table => '" + t.substring(5) + "')");
      }
      List<Row> merged = sql("SELECT * FROM " + t).collectAsList();
      spark.createDataFrame(merged, sql("SELECT * FROM " + t).schema()).createOrReplaceTempView("merged_" + kind[0]);
      for (int q = 0; q < 12; q++) {
        String c = "c" + r.nextInt(6);
        String v = "v" + r.nextInt(12);
        String[] predicates = {"cat = '" + c + "'", "v = '" + v + "'", "cat IN ('" + c + "', 'c9')", "cat IS NULL",
            "NOT (cat = '" + c + "')", "k2 = 'k" + r.nextInt(4) + "'", "v = '" + v + "' OR cat = '" + c + "'",
            "k2 = 'k1' AND v = '" + v + "'"};
        String where = predicates[q % predicates.length];
        assertEquals(rows("SELECT count(*), sum(k1) FROM merged_" + kind[0] + " WHERE " + where),
            rows("SELECT count(*), sum(k1) FROM " + t + " WHERE " + where), kind[0] + ": " + where);
      }
    }
  }

  /** rewrite_file_index indexes the existing files of a primary-key table, data untouched; scans then use the indexes. */
  @Test
  void rewriteFileIndexIndexesPrimaryKeyFiles() throws Exception {
    sql("CREATE TABLE lake.pki.later (k1 INT NOT NULL, k2 STRING NOT NULL, cat STRING, v STRING) TBLPROPERTIES ("
        + "'primary-key' = 'k1,k2', 'bucket' = '1', 'write-only' = 'true', 'deletion-vectors.enabled' = 'true')");
    sql("INSERT INTO lake.pki.later VALUES (1, 'a', 'x', 'v1'), (2, 'b', 'y', 'v2')");
    sql("CALL lake.sys.compact(table => 'pki.later', compact_strategy => 'full')");
    sql("INSERT INTO lake.pki.later VALUES (3, 'c', 'z', 'v3')");
    sql("CALL lake.sys.compact(table => 'pki.later', compact_strategy => 'full')");
    List<String> before = rows("SELECT * FROM lake.pki.later ORDER BY k1");
    FileStoreTable t = core("later");
    List<ManifestEntry> files = new ArrayList<>(LiveFiles.read(t.manifests(), t.snapshots().latest().orElseThrow()));
    // Key 3 overlaps no other file, so full compaction upgrades its file to the top level unchanged: two files.
    assertEquals(2, files.size());
    for (ManifestEntry e : files) assertEquals(null, e.file.embeddedIndex);
    assertEquals(2, files(plan("later", new EqualTo("cat", "nowhere"))), "no index yet");
    sql("ALTER TABLE lake.pki.later SET TBLPROPERTIES ('file-index.bitmap.columns' = 'cat')");
    List<Row> result = sql("CALL lake.sys.rewrite_file_index(table => 'pki.later')").collectAsList();
    assertEquals(2, result.get(0).getInt(1));
    List<ManifestEntry> after = new ArrayList<>(LiveFiles.read(core("later").manifests(),
        core("later").snapshots().latest().orElseThrow()));
    assertEquals(names(files), names(after), "the data files stay");
    for (ManifestEntry e : after) assertNotNull(e.file.embeddedIndex, e.file.fileName);
    assertEquals(0, files(plan("later", new EqualTo("cat", "nowhere"))), "the new indexes rule both files out");
    assertEquals(1, files(plan("later", new EqualTo("cat", "z"))));
    assertEquals(1, files(plan("later", new EqualTo("cat", "x"))));
    assertEquals(before, rows("SELECT * FROM lake.pki.later ORDER BY k1"));
    assertEquals(io.lagoon.it.oracle.SparkRows.renderAll(sql("SELECT * FROM lake.pki.later")), PaimonOracle.readRows(dir("later")));
  }

  private static java.util.Set<String> names(List<ManifestEntry> files) {
    java.util.Set<String> names = new java.util.TreeSet<>();
    for (ManifestEntry e : files) names.add(e.file.fileName);
    return names;
  }
}
