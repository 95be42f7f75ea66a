package io.lagoon.it.dynamicbucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.ddl.WarehouseListing;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cross-partition upsert tables (dynamic buckets, a primary key without the partition columns):
 * a key lives in one partition of the whole table, and writing it into another partition moves
 * it there, by INSERT or by row-level statements; Paimon 1.3.1 reads the same rows.
 */
class CrossPartitionWriteTest extends LagoonSparkTest {
  @BeforeAll
  static void ns() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.cross");
  }

  private static Path dir(String table) {
    return warehouse.resolve("cross.db").resolve(table);
  }

  static void sameInPaimon(String table) {
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM lake.cross." + table)), PaimonOracle.readRows(dir(table)),
        "Paimon 1.3.1 reads what Lagoon reads");
    assertEquals(sql("SELECT count(*) FROM lake.cross." + table).first().getLong(0),
        sql("SELECT count(DISTINCT id) FROM lake.cross." + table).first().getLong(0), "every key lives once");
  }

  @Test
  void aKeyWrittenIntoAnotherPartitionMovesThere() {
    sql("CREATE TABLE lake.cross.t (id INT, v STRING, d STRING) PARTITIONED BY (d) TBLPROPERTIES ('primary-key' = 'id')");
    sql("INSERT INTO lake.cross.t VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'c', 'y')");
    sql("INSERT INTO lake.cross.t VALUES (1, 'a2', 'y'), (2, 'b2', 'x')");
    assertEquals(List.of("1,a2,y", "2,b2,x", "3,c,y"), rows("SELECT * FROM lake.cross.t"));
    sameInPaimon("t");
    // Many keys, half of them moved to the next partition, some twice.
    sql("INSERT INTO lake.cross.t SELECT CAST(id AS INT), 'v0', CAST(id % 3 AS STRING) FROM range(10, 310)");
    sql("INSERT INTO lake.cross.t SELECT CAST(id AS INT), 'v1', CAST((id + 1) % 3 AS STRING) FROM range(10, 310) "
        + "WHERE id % 2 = 0");
    sql("INSERT INTO lake.cross.t SELECT CAST(id AS INT), 'v2', CAST((id + 2) % 3 AS STRING) FROM range(10, 310) "
        + "WHERE id % 4 = 0");
    Map<String, Long> expected = new TreeMap<>();
    for (int id = 10; id < 310; id++) {
      int p = id % 4 == 0 ? (id + 2) % 3 : id % 2 == 0 ? (id + 1) % 3 : id % 3;
      expected.merge(Integer.toString(p), 1L, Long::sum);
    }
    List<String> counts = new ArrayList<>();
    for (Map.Entry<String, Long> e : expected.entrySet()) counts.add(e.getKey() + "," + e.getValue());
    assertEquals(counts, rows("SELECT d, count(*) FROM lake.cross.t WHERE id >= 10 GROUP BY d"));
    assertEquals(List.of("150"), rows("SELECT count(*) FROM lake.cross.t WHERE v = 'v0'"));
    sameInPaimon("t");
  }

  @Test
  void rowLevelStatementsMoveAndDeleteKeysAcrossPartitions() {
    sql("CREATE TABLE lake.cross.dml (id INT, n INT, d STRING) PARTITIONED BY (d) TBLPROPERTIES ('primary-key' = 'id', "
        + "'dynamic-bucket.target-row-num' = '40')");
    sql("INSERT INTO lake.cross.dml SELECT CAST(id AS INT), CAST(id AS INT), IF(id % 2 = 0, 'even', 'odd') "
        + "FROM range(0, 200)");
    sql("DELETE FROM lake.cross.dml WHERE n % 10 = 3");
    sql("UPDATE lake.cross.dml SET d = 'moved' WHERE n % 10 = 5");
    sql("MERGE INTO lake.cross.dml t USING (SELECT CAST(id AS INT) AS id, -1 AS n, 'merged' AS d FROM range(190, 210)) s "
        + "ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 210; i++) {
      if (i < 200 && i % 10 == 3 && i < 190) continue;
      String d = i >= 190 ? "merged" : i % 10 == 5 ? "moved" : i % 2 == 0 ? "even" : "odd";
      expected.add(i + "," + (i >= 190 ? -1 : i) + "," + d);
    }
    expected.sort(String::compareTo);
    assertEquals(expected, rows("SELECT * FROM lake.cross.dml"));
    sameInPaimon("dml");
  }

  @Test
  void overwritingTheWholeTableReplacesEveryKeyWherever() {
    sql("CREATE TABLE lake.cross.ow_all (id INT, v STRING, d STRING) PARTITIONED BY (d) TBLPROPERTIES ("
        + "'primary-key' = 'id', 'dynamic-bucket.target-row-num' = '30')");
    sql("INSERT INTO lake.cross.ow_all SELECT CAST(id AS INT), 'old', CAST(id % 3 AS STRING) FROM range(0, 200)");
    // New rows: keys 100..299, each in another partition than before (or new), duplicates within the
    // statement deduplicated as any write does; keys 0..99 are gone.
    sql("INSERT OVERWRITE lake.cross.ow_all SELECT CAST(id AS INT), 'new', CAST((id + 1) % 3 AS STRING) "
        + "FROM range(100, 300)");
    List<String> expected = new ArrayList<>();
    for (int id = 100; id < 300; id++) expected.add(id + ",new," + (id + 1) % 3);
    expected.sort(String::compareTo);
    assertEquals(expected, rows("SELECT * FROM lake.cross.ow_all"));
    assertEquals(List.of("OVERWRITE"), rows("SELECT commit_kind FROM lake.cross.`ow_all$snapshots` "
        + "ORDER BY snapshot_id DESC LIMIT 1"));
    sameInPaimon("ow_all");
    // Later upserts find the keys where the overwrite put them, and move them from there.
    sql("INSERT INTO lake.cross.ow_all SELECT CAST(id AS INT), 'moved', '9' FROM range(250, 310)");
    Map<String, Long> counts = new TreeMap<>();
    for (int id = 100; id < 250; id++) counts.merge(Integer.toString((id + 1) % 3), 1L, Long::sum);
    counts.put("9", 60L);
    List<String> expectedCounts = new ArrayList<>();
    for (Map.Entry<String, Long> e : counts.entrySet()) expectedCounts.add(e.getKey() + "," + e.getValue());
    assertEquals(expectedCounts, rows("SELECT d, count(*) FROM lake.cross.ow_all GROUP BY d"));
    sameInPaimon("ow_all");
  }

  /**
   * {@code INSERT OVERWRITE ... PARTITION (d = 'y')}: partition y holds exactly the new rows; a key
   * of a new row that lived in another partition leaves it (retracted there, in the same snapshot);
   * keys of the old y that are not written again are gone; other partitions keep their other keys.
   * With deletion vectors too, whose readers skip level 0 (the overwrite compacts after it commits).
   */
  @ParameterizedTest(name = "deletion vectors {0}")
  @ValueSource(booleans = {false, true})
  void overwritingSomePartitionsMovesTheKeysOfNewRowsOutOfTheOthers(boolean vectors) {
    String t = "ow_some" + (vectors ? "_dv" : "");
    sql("CREATE TABLE lake.cross." + t + " (id INT, v STRING, d STRING) PARTITIONED BY (d) TBLPROPERTIES ("
        + "'primary-key' = 'id', 'dynamic-bucket.target-row-num' = '40'"
        + (vectors ? ", 'deletion-vectors.enabled' = 'true'" : "") + ")");
    Map<Integer, String> model = new TreeMap<>();
    sql("INSERT INTO lake.cross." + t + " SELECT CAST(id AS INT), 'old', CAST(id % 3 AS STRING) FROM range(0, 300)");
    for (int id = 0; id < 300; id++) model.put(id, "old," + id % 3);
    long lastBefore = sql("SELECT max(snapshot_id) FROM lake.cross.`" + t + "$snapshots`").first().getLong(0);
    // Partition 1 is replaced by keys 200..399 (a third of them lived there, two thirds elsewhere, half new).
    sql("INSERT OVERWRITE lake.cross." + t + " PARTITION (d = '1') SELECT CAST(id AS INT), 'new' FROM range(200, 400)");
    model.values().removeIf(v -> v.endsWith(",1"));
    for (int id = 200; id < 400; id++) model.put(id, "new,1");
    assertEquals(expected(model), rows("SELECT * FROM lake.cross." + t));
    // One OVERWRITE snapshot, then only compactions (of level 0, where readers skip it).
    List<String> kinds = sql("SELECT commit_kind FROM lake.cross.`" + t + "$snapshots` WHERE snapshot_id > "
        + lastBefore + " ORDER BY snapshot_id").collectAsList().stream().map(r -> r.getString(0)).toList();
    assertEquals("OVERWRITE", kinds.get(0), kinds.toString());
    assertTrue(kinds.subList(1, kinds.size()).stream().allMatch("COMPACT"::equals), kinds.toString());
    sameInPaimon(t);
    assertLiveRecordsInOneBucket(t);
    // Later writes find every key where the overwrite left it.
    sql("INSERT INTO lake.cross." + t + " SELECT CAST(id AS INT), 'later', '2' FROM range(150, 250)");
    for (int id = 150; id < 250; id++) model.put(id, "later,2");
    assertEquals(expected(model), rows("SELECT * FROM lake.cross." + t));
    sameInPaimon(t);
    assertLiveRecordsInOneBucket(t);
  }

  /**
   * Dynamic mode replaces the partitions the new rows fall in, never one that only lost keys to
   * them: here partitions 1 and 9 (new) are replaced, and 0 and 2 only lose the moved keys.
   */
  @Test
  void aDynamicOverwriteReplacesOnlyThePartitionsOfItsRows() {
    sql("CREATE TABLE lake.cross.ow_dyn (id INT, v STRING, d STRING) PARTITIONED BY (d) TBLPROPERTIES ("
        + "'primary-key' = 'id', 'dynamic-bucket.target-row-num' = '40')");
    sql("INSERT INTO lake.cross.ow_dyn SELECT CAST(id AS INT), 'old', CAST(id % 3 AS STRING) FROM range(0, 300)");
    Map<Integer, String> model = new TreeMap<>();
    for (int id = 0; id < 300; id++) model.put(id, "old," + id % 3);
    spark.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
    try {
      sql("INSERT OVERWRITE lake.cross.ow_dyn SELECT CAST(id AS INT), 'new', IF(id % 2 = 0, '1', '9') "
          + "FROM range(250, 350)");
    } finally {
      spark.conf().unset("spark.sql.sources.partitionOverwriteMode");
    }
    model.values().removeIf(v -> v.endsWith(",1"));
    for (int id = 250; id < 350; id++) model.put(id, "new," + (id % 2 == 0 ? "1" : "9"));
    assertEquals(expected(model), rows("SELECT * FROM lake.cross.ow_dyn"));
    assertEquals(List.of("0," + count(model, "0"), "1," + count(model, "1"), "2," + count(model, "2"),
        "9," + count(model, "9")), rows("SELECT d, count(*) FROM lake.cross.ow_dyn GROUP BY d"));
    sameInPaimon("ow_dyn");
    assertLiveRecordsInOneBucket("ow_dyn");
  }

  /** The other merge engines keep a key where it lives, so an overwrite could not move it: refused, table unchanged. */
  @Test
  void overwritingSomePartitionsOfAnotherEngineIsRefusedNamingWhy() {
    sql("CREATE TABLE lake.cross.ow_pu (id INT, v STRING, d STRING) PARTITIONED BY (d) TBLPROPERTIES ("
        + "'primary-key' = 'id', 'merge-engine' = 'partial-update')");
    sql("INSERT INTO lake.cross.ow_pu VALUES (1, 'a', 'x'), (2, 'b', 'y')");
    List<String> before = rows("SELECT snapshot_id FROM lake.cross.`ow_pu$snapshots`");
    for (String statement : List.of("INSERT OVERWRITE lake.cross.ow_pu PARTITION (d = 'y') VALUES (1, 'c')",
        "INSERT OVERWRITE lake.cross.ow_pu SELECT 1, 'c', 'y'")) {
      boolean dynamic = !statement.contains("PARTITION");
      if (dynamic) spark.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
      try {
        Throwable e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> sql(statement));
        String m = WarehouseListing.messages(e);
        org.junit.jupiter.api.Assertions.assertTrue(m.contains("cross-partition") && m.contains("partial-update")
            && m.contains("whole table"), m);
      } finally {
        spark.conf().unset("spark.sql.sources.partitionOverwriteMode");
      }
      assertEquals(List.of("1,a,x", "2,b,y"), rows("SELECT * FROM lake.cross.ow_pu"));
      assertEquals(before, rows("SELECT snapshot_id FROM lake.cross.`ow_pu$snapshots`"));
    }
  }

  private static List<String> expected(Map<Integer, String> model) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<Integer, String> e : model.entrySet()) out.add(e.getKey() + "," + e.getValue());
    out.sort(String::compareTo);
    return out;
  }

  private static long count(Map<Integer, String> model, String partition) {
    return model.values().stream().filter(v -> v.endsWith("," + partition)).count();
  }

  /**
   * A model over many commits of random upserts (many moving their key to another partition),
   * deletes, updates of the partition column and overwrites of one partition: after each commit the rows are the model's,
   * every key lives in one partition and has live records in one bucket only, and Paimon 1.3.1
   * reads the same.
   */
  @ParameterizedTest(name = "deletion vectors {0}")
  @ValueSource(booleans = {false, true})
  void aModelOverManyCommitsNeverLivesAKeyInTwoPartitions(boolean vectors) {
    String name = vectors ? "model_dv" : "model";
    sql("CREATE TABLE lake.cross." + name + " (id INT, v STRING, d STRING) PARTITIONED BY (d) "
        + "TBLPROPERTIES ('primary-key' = 'id', 'dynamic-bucket.target-row-num' = '20'"
        + (vectors ? ", 'deletion-vectors.enabled' = 'true'" : "") + ")");
    Map<Integer, String> model = new TreeMap<>();
    java.util.Random random = new java.util.Random(7);
    String[] parts = {"a", "b", "c"};
    for (int round = 0; round < 8; round++) {
      Map<Integer, String[]> batch = new TreeMap<>();
      for (int n = 0; n < 40; n++) batch.put(random.nextInt(120), new String[] {"r" + round + "_" + n, parts[random.nextInt(3)]});
      StringBuilder values = new StringBuilder();
      for (Map.Entry<Integer, String[]> e : batch.entrySet()) {
        values.append(values.length() == 0 ? "" : ", ").append("(").append(e.getKey()).append(", '")
            .append(e.getValue()[0]).append("', '").append(e.getValue()[1]).append("')");
        model.put(e.getKey(), e.getValue()[0] + "," + e.getValue()[1]);
      }
      sql("INSERT INTO lake.cross." + name + " VALUES " + values);
      if (round % 3 == 1) {
        int gone = random.nextInt(120);
        sql("DELETE FROM lake.cross." + name + " WHERE id % 7 = " + (gone % 7));
        model.keySet().removeIf(k -> k % 7 == gone % 7);
      }
      if (round % 3 == 2) {
        String to = parts[random.nextInt(3)];
        sql("UPDATE lake.cross." + name + " SET d = '" + to + "' WHERE id % 5 = 1");
        for (Map.Entry<Integer, String> e : model.entrySet()) {
          if (e.getKey() % 5 == 1) e.setValue(e.getValue().substring(0, e.getValue().lastIndexOf(',') + 1) + to);
        }
      }
      if (round % 4 == 3) {
        // Partition b is replaced by 15 keys from anywhere (or new).
        int from = random.nextInt(120);
        sql("INSERT OVERWRITE lake.cross." + name + " PARTITION (d = 'b') SELECT CAST(id AS INT), 'ow" + round
            + "' FROM range(" + from + ", " + (from + 15) + ")");
        model.values().removeIf(v -> v.endsWith(",b"));
        for (int id = from; id < from + 15; id++) model.put(id, "ow" + round + ",b");
      }
      List<String> expected = new ArrayList<>();
      for (Map.Entry<Integer, String> e : model.entrySet()) expected.add(e.getKey() + "," + e.getValue());
      expected.sort(String::compareTo);
      assertEquals(expected, rows("SELECT * FROM lake.cross." + name), "round " + round);
      assertLiveRecordsInOneBucket(name);
      if (round % 2 == 1) sameInPaimon(name);
    }
  }

  /** Every key's newest records that are not retractions lie in one (partition, bucket) only. */
  static void assertLiveRecordsInOneBucket(String table) {
    io.lagoon.core.table.FileStoreTable t = BucketIndexCheck.load(spark, dir(table), "cross." + table);
    try {
      io.lagoon.core.dynamicbucket.KeyLocations live = new io.lagoon.core.dynamicbucket.KeyLocations();
      Map<String, List<io.lagoon.core.manifest.ManifestEntry>> buckets = new TreeMap<>();
      for (io.lagoon.core.manifest.ManifestEntry e : io.lagoon.core.scan.LiveFiles.read(t.manifests(),
          t.snapshots().latest().orElseThrow())) {
        buckets.computeIfAbsent(t.paths().bucketPath(e.partition, e.bucket), k -> new ArrayList<>()).add(e);
      }
      // Records a deletion vector marks are superseded, not live.
      String indexManifest = t.snapshots().latest().orElseThrow().indexManifest;
      List<io.lagoon.core.manifest.IndexManifestEntry> index = indexManifest == null ? List.of()
          : t.manifests().readIndexManifest(indexManifest);
      for (List<io.lagoon.core.manifest.ManifestEntry> files : buckets.values()) {
        io.lagoon.core.dynamicbucket.KeyLocations.BucketLoad load = live.bucket(files.get(0).partition, files.get(0).bucket);
        io.lagoon.core.deletionvectors.BucketVectors vectors = io.lagoon.core.deletionvectors.BucketVectors.of(t,
            files.get(0).partition, files.get(0).bucket, index);
        for (io.lagoon.core.manifest.ManifestEntry e : files) {
          io.lagoon.core.deletionvectors.DeletionVector deleted = vectors.of(e.file.fileName);
          long position = 0;
          // One small file is one Spark partition, read in file order.
          for (org.apache.spark.sql.Row r : spark.read().parquet(t.paths().dataFile(e).toString())
              .selectExpr("_KEY_id", "_SEQUENCE_NUMBER", "_VALUE_KIND").collectAsList()) {
            if (deleted != null && deleted.isDeleted(position++)) continue;
            load.record(new byte[] {(byte) r.getInt(0), (byte) (r.getInt(0) >> 8)}, r.getLong(1), r.getByte(2) >= 2);
          }
        }
        load.close(); // throws when a key is live in two buckets
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
