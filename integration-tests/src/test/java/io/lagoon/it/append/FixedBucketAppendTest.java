package io.lagoon.it.append;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fixed-bucket append tables ({@code 'bucket'='N'} with {@code 'bucket-key'}, no primary key):
 * every row lands in the bucket Paimon's hash of its bucket key picks, a bucket's rows are numbered
 * after the ones already in it, and Paimon 1.3.1 reads what Lagoon wrote, in tables either created.
 */
class FixedBucketAppendTest extends LagoonSparkTest {
  @BeforeAll
  static void ns() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.fb");
  }

  private static Path dir(String table) {
    return warehouse.resolve("fb.db").resolve(table);
  }

  @Test
  void aFixedBucketAppendTableNeedsABucketKey() {
    Throwable noKey = assertThrows(Exception.class,
        () -> sql("CREATE TABLE lake.fb.nokey (id INT, v STRING) TBLPROPERTIES ('bucket' = '3')"));
    assertTrue(noKey.getMessage().contains("needs 'bucket-key'"), noKey.getMessage());
    Throwable badKey = assertThrows(Exception.class, () -> sql("CREATE TABLE lake.fb.badkey (id INT, v STRING) "
        + "TBLPROPERTIES ('bucket' = '3', 'bucket-key' = 'nope')"));
    assertTrue(badKey.getMessage().contains("'nope'"), badKey.getMessage());
    Throwable zero = assertThrows(Exception.class, () -> sql("CREATE TABLE lake.fb.zero (id INT) "
        + "TBLPROPERTIES ('bucket' = '0', 'bucket-key' = 'id')"));
    assertTrue(zero.getMessage().contains("'bucket'='0'"), zero.getMessage());
    assertTrue(sql("SHOW TABLES IN lake.fb").collectAsList().stream().noneMatch(r -> r.getString(1).matches(
        "nokey|badkey|zero")));
  }

  @Test
  void rowsGoToPaimonsBucketNumberedAfterTheBucketsRows() {
    sql("CREATE TABLE lake.fb.t (id INT, v STRING, p INT) PARTITIONED BY (p) "
        + "TBLPROPERTIES ('bucket' = '3', 'bucket-key' = 'id')");
    sql("INSERT INTO lake.fb.t SELECT CAST(id AS INT), CONCAT('a', id), CAST(id % 2 AS INT) FROM range(0, 200)");
    sql("INSERT INTO lake.fb.t SELECT CAST(id AS INT), CONCAT('b', id), CAST(id % 2 AS INT) FROM range(100, 150)");
    assertEquals(250L, sql("SELECT count(*) FROM lake.fb.t").first().getLong(0));
    assertRowsInTheirBuckets("lake.fb.t", "'[\"INT\"]'", 3);
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM lake.fb.t")), PaimonOracle.readRows(dir("t")),
        "Paimon 1.3.1 reads what Lagoon reads");
    assertSequencesFollowEachOther(dir("t"));
    // Overwriting a partition keeps the layout.
    sql("INSERT OVERWRITE lake.fb.t PARTITION (p = 1) SELECT CAST(id AS INT), 'o' FROM range(1, 40, 2)");
    assertEquals(List.of("0,125", "1,20"), rows("SELECT p, count(*) FROM lake.fb.t GROUP BY p"));
    assertRowsInTheirBuckets("lake.fb.t", "'[\"INT\"]'", 3);
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM lake.fb.t")), PaimonOracle.readRows(dir("t")));
  }

  @Test
  void rowLevelStatementsKeepEveryRowInItsBucket() {
    for (String dv : List.of("false", "true")) {
      String t = "lake.fb.dml_" + dv;
      sql("CREATE TABLE " + t + " (k STRING, n INT) TBLPROPERTIES ('bucket' = '4', 'bucket-key' = 'k', "
          + "'deletion-vectors.enabled' = '" + dv + "')");
      sql("INSERT INTO " + t + " SELECT CONCAT('k', id), CAST(id AS INT) FROM range(0, 300)");
      sql("DELETE FROM " + t + " WHERE n % 10 = 3");
      sql("UPDATE " + t + " SET n = n + 1000 WHERE n % 10 = 5");
      // Changing the bucket key moves the row to another bucket.
      sql("UPDATE " + t + " SET k = CONCAT(k, 'x') WHERE n % 10 = 7");
      sql("MERGE INTO " + t + " t USING (SELECT CONCAT('k', id) AS k, CAST(id AS INT) AS n FROM range(290, 310)) s "
          + "ON t.k = s.k WHEN MATCHED THEN UPDATE SET n = -s.n WHEN NOT MATCHED THEN INSERT *");
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        if (i % 10 == 3) continue;
        if (i % 10 == 7) expected.add("k" + i + "x," + i);
        else expected.add("k" + i + "," + (i >= 290 ? -i : i % 10 == 5 ? i + 1000 : i));
      }
      // Source rows whose key is no longer in the table (deleted, moved, or new) are inserted.
      for (int i = 290; i < 310; i++) if (i >= 300 || i % 10 == 3 || i % 10 == 7) expected.add("k" + i + "," + i);
      expected.sort(String::compareTo);
      assertEquals(expected, rows("SELECT * FROM " + t), "deletion vectors " + dv);
      assertRowsInTheirBuckets(t, "'[\"STRING\"]'", 4);
      assertEquals(SparkRows.renderAll(sql("SELECT * FROM " + t)), PaimonOracle.readRows(dir("dml_" + dv)),
          "Paimon 1.3.1 reads what Lagoon reads, deletion vectors " + dv);
    }
  }

  @Test
  void aTablePaimonCreatedAndWroteTakesLagoonsRowsAndPaimonsAgain() {
    Schema schema = Schema.newBuilder().column("id", DataTypes.BIGINT()).column("v", DataTypes.STRING())
        .option("bucket", "5").option("bucket-key", "id").build();
    Path table = PaimonOracle.createTable(warehouse, "fb", "paimon_made", schema);
    PaimonOracle.writeRows(table, paimonRows(0, 100, "paimon"));
    sql("INSERT INTO lake.fb.paimon_made SELECT id, CONCAT('lagoon', id) FROM range(50, 180)");
    PaimonOracle.writeRows(table, paimonRows(150, 220, "again"));
    assertEquals(300L, sql("SELECT count(*) FROM lake.fb.paimon_made").first().getLong(0));
    assertRowsInTheirBuckets("lake.fb.paimon_made", "'[\"BIGINT\"]'", 5);
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM lake.fb.paimon_made")), PaimonOracle.readRows(table));
    assertSequencesFollowEachOther(table);
  }

  private static List<GenericRow> paimonRows(long from, long to, String prefix) {
    List<GenericRow> out = new ArrayList<>();
    for (long i = from; i < to; i++) out.add(GenericRow.of(i, BinaryString.fromString(prefix + i)));
    return out;
  }

  /** Every row's file lies in {@code bucket-<paimon_bucket(n, types, key)>}. */
  private static void assertRowsInTheirBuckets(String table, String types, int n) {
    String key = sql("SHOW TBLPROPERTIES " + table + " ('bucket-key')").first().getString(1);
    List<Row> rows = sql("SELECT " + key + ", _file, lake.paimon_bucket(" + n + ", " + types + ", " + key + ") FROM "
        + table).collectAsList();
    assertTrue(!rows.isEmpty());
    for (Row r : rows) {
      String file = r.getString(1);
      assertTrue(file.contains("/bucket-" + r.getInt(2) + "/"), r.get(0) + " is in " + file);
    }
  }

  /** In each bucket the files' sequence ranges do not overlap: each write numbers after the last. */
  private static void assertSequencesFollowEachOther(Path tableDir) {
    Map<String, List<long[]>> ranges = new HashMap<>();
    for (ManifestEntry e : PaimonOracle.openTable(tableDir).store().newScan().plan().files()) {
      ranges.computeIfAbsent(java.util.Arrays.toString(e.partition().toBytes()) + "/" + e.bucket(), b -> new ArrayList<>())
          .add(new long[] {e.file().minSequenceNumber(), e.file().maxSequenceNumber()});
    }
    for (Map.Entry<String, List<long[]>> b : ranges.entrySet()) {
      List<long[]> r = b.getValue();
      r.sort((x, y) -> Long.compare(x[0], y[0]));
      for (int i = 1; i < r.size(); i++) {
        assertTrue(r.get(i)[0] > r.get(i - 1)[1], "bucket " + b.getKey() + ": sequence ranges overlap");
      }
    }
  }
}
