package io.lagoon.it.dynamicbucket;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

  @Test
  void overwritingSomePartitionsIsRefusedNamingWhy() {
    sql("CREATE TABLE lake.cross.ow (id INT, d STRING) PARTITIONED BY (d) TBLPROPERTIES ('primary-key' = 'id')");
    sql("INSERT INTO lake.cross.ow VALUES (1, 'x'), (2, 'y')");
    List<String> before = rows("SELECT snapshot_id FROM lake.cross.`ow$snapshots`");
    for (String statement : List.of("INSERT OVERWRITE lake.cross.ow PARTITION (d = 'y') VALUES (1)",
        "INSERT OVERWRITE lake.cross.ow SELECT 1, 'y'")) {
      boolean dynamic = !statement.contains("PARTITION");
      if (dynamic) spark.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
      try {
        Throwable e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> sql(statement));
        String m = WarehouseListing.messages(e);
        org.junit.jupiter.api.Assertions.assertTrue(m.contains("cross-partition") && m.contains("whole table"), m);
      } finally {
        spark.conf().unset("spark.sql.sources.partitionOverwriteMode");
      }
      assertEquals(List.of("1,x", "2,y"), rows("SELECT * FROM lake.cross.ow"));
      assertEquals(before, rows("SELECT snapshot_id FROM lake.cross.`ow$snapshots`"));
    }
  }

  /**
   * A model over many commits of random upserts (many moving their key to another partition),
   * deletes and updates of the partition column: after each commit the rows are the model's,
   * every key lives in one partition and has live records in one bucket only, and Paimon 1.3.1
   * reads the same.
   */
  @Test
  void aModelOverManyCommitsNeverLivesAKeyInTwoPartitions() {
    sql("CREATE TABLE lake.cross.model (id INT, v STRING, d STRING) PARTITIONED BY (d) "
        + "TBLPROPERTIES ('primary-key' = 'id', 'dynamic-bucket.target-row-num' = '20')");
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
      sql("INSERT INTO lake.cross.model VALUES " + values);
      if (round % 3 == 1) {
        int gone = random.nextInt(120);
        sql("DELETE FROM lake.cross.model WHERE id % 7 = " + (gone % 7));
        model.keySet().removeIf(k -> k % 7 == gone % 7);
      }
      if (round % 3 == 2) {
        String to = parts[random.nextInt(3)];
        sql("UPDATE lake.cross.model SET d = '" + to + "' WHERE id % 5 = 1");
        for (Map.Entry<Integer, String> e : model.entrySet()) {
          if (e.getKey() % 5 == 1) e.setValue(e.getValue().substring(0, e.getValue().lastIndexOf(',') + 1) + to);
        }
      }
      List<String> expected = new ArrayList<>();
      for (Map.Entry<Integer, String> e : model.entrySet()) expected.add(e.getKey() + "," + e.getValue());
      expected.sort(String::compareTo);
      assertEquals(expected, rows("SELECT * FROM lake.cross.model"), "round " + round);
      assertLiveRecordsInOneBucket("model");
      if (round % 2 == 1) sameInPaimon("model");
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
      for (List<io.lagoon.core.manifest.ManifestEntry> files : buckets.values()) {
        io.lagoon.core.dynamicbucket.KeyLocations.BucketLoad load = live.bucket(files.get(0).partition, files.get(0).bucket);
        for (io.lagoon.core.manifest.ManifestEntry e : files) {
          for (org.apache.spark.sql.Row r : spark.read().parquet(t.paths().dataFile(e).toString())
              .selectExpr("_KEY_id", "_SEQUENCE_NUMBER", "_VALUE_KIND").collectAsList()) {
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
