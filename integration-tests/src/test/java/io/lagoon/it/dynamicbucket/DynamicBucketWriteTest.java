package io.lagoon.it.dynamicbucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Writes into dynamic-bucket primary-key tables ({@code 'bucket'} unset or -1) through SQL: an
 * INSERT upserts, existing keys stay in the bucket the HASH index gives them, new keys fill
 * buckets up to {@code dynamic-bucket.target-row-num}, and Paimon 1.3.1 reads what Lagoon wrote.
 */
class DynamicBucketWriteTest extends LagoonSparkTest {
  private static final List<PaimonType> INT_KEY = List.of(PaimonType.of(TypeRoot.INT));

  @BeforeAll
  static void ns() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.dyn");
  }

  private static Path dir(String table) {
    return warehouse.resolve("dyn.db").resolve(table);
  }

  private static Map<String, Map<Integer, Integer>> check(String table) {
    return BucketIndexCheck.assertKeysInTheirIndexedBucket(spark, "lake.dyn." + table, dir(table), List.of("id"), INT_KEY);
  }

  @Test
  void aPrimaryKeyWithoutBucketsMakesADynamicBucketTableThatUpserts() {
    sql("CREATE TABLE lake.dyn.t (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id')");
    assertEquals("-1", sql("SHOW TBLPROPERTIES lake.dyn.t ('bucket')").first().getString(1));
    sql("INSERT INTO lake.dyn.t SELECT CAST(id AS INT), CONCAT('a', id) FROM range(0, 1000)");
    check("t");
    sql("INSERT INTO lake.dyn.t SELECT CAST(id AS INT), CONCAT('b', id) FROM range(500, 1500)");
    assertEquals(List.of("1500,1500,500"), rows("SELECT count(*), count(DISTINCT id), "
        + "sum(CASE WHEN v LIKE 'a%' THEN 1 ELSE 0 END) FROM lake.dyn.t"));
    check("t");
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM lake.dyn.t")), PaimonOracle.readRows(dir("t")),
        "Paimon 1.3.1 reads what Lagoon reads");
  }

  @Test
  void newKeysFillBucketsUpToTheTargetAndExistingKeysStay() {
    sql("CREATE TABLE lake.dyn.small (id INT, v INT) TBLPROPERTIES ('primary-key' = 'id', "
        + "'dynamic-bucket.target-row-num' = '100', 'dynamic-bucket.assigner-parallelism' = '2')");
    sql("INSERT INTO lake.dyn.small SELECT CAST(id AS INT), 0 FROM range(0, 500)");
    Map<Integer, Integer> first = check("small").get("");
    // Two assigners, each filling its own buckets (even and odd numbers) to 100 keys.
    int total = 0;
    for (Map.Entry<Integer, Integer> b : first.entrySet()) {
      assertTrue(b.getValue() <= 100, "bucket " + b.getKey() + " holds " + b.getValue());
      total += b.getValue();
    }
    assertEquals(500, total);
    assertTrue(first.size() >= 5 && first.size() <= 7, "buckets " + first);
    // Upserting every key and adding new ones: old keys keep their bucket, new ones go on filling.
    sql("INSERT INTO lake.dyn.small SELECT CAST(id AS INT), 1 FROM range(0, 700)");
    Map<Integer, Integer> second = check("small").get("");
    for (Map.Entry<Integer, Integer> b : second.entrySet()) assertTrue(b.getValue() <= 100, "bucket " + b);
    assertEquals(List.of("0,0", "1,700"), rows("SELECT 0, count(*) FROM lake.dyn.small WHERE v = 0 "
        + "UNION ALL SELECT 1, count(*) FROM lake.dyn.small WHERE v = 1"));
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM lake.dyn.small")), PaimonOracle.readRows(dir("small")));
  }

  @Test
  void maxBucketsBoundsAPartitionsBuckets() {
    sql("CREATE TABLE lake.dyn.capped (id INT, v INT) TBLPROPERTIES ('primary-key' = 'id', "
        + "'dynamic-bucket.target-row-num' = '10', 'dynamic-bucket.max-buckets' = '3', "
        + "'dynamic-bucket.assigner-parallelism' = '1')");
    sql("INSERT INTO lake.dyn.capped SELECT CAST(id AS INT), 0 FROM range(0, 100)");
    assertEquals(List.of(0, 1, 2), new ArrayList<>(check("capped").get("").keySet()));
  }

  @Test
  void partitionsKeepTheirOwnIndex() {
    sql("CREATE TABLE lake.dyn.parts (id INT, d STRING, v INT) PARTITIONED BY (d) "
        + "TBLPROPERTIES ('primary-key' = 'id,d', 'dynamic-bucket.target-row-num' = '50')");
    sql("INSERT INTO lake.dyn.parts SELECT CAST(id AS INT), IF(id % 3 = 0, 'x', 'y'), 0 FROM range(0, 300)");
    sql("INSERT INTO lake.dyn.parts SELECT CAST(id AS INT), IF(id % 3 = 0, 'x', 'y'), 1 FROM range(150, 450)");
    Map<String, Map<Integer, Integer>> sizes = check("parts");
    assertEquals(List.of("d=x/", "d=y/"), new ArrayList<>(sizes.keySet()));
    assertEquals(List.of("x,150", "y,300"), rows("SELECT d, count(*) FROM lake.dyn.parts GROUP BY d"));
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM lake.dyn.parts")), PaimonOracle.readRows(dir("parts")));
    // Overwriting a partition starts its index afresh; the other keeps its own.
    sql("INSERT OVERWRITE lake.dyn.parts PARTITION (d = 'x') SELECT CAST(id AS INT), 2 FROM range(1000, 1010)");
    assertEquals(List.of("x,10", "y,300"), rows("SELECT d, count(*) FROM lake.dyn.parts GROUP BY d"));
    sizes = check("parts");
    int indexedX = 0;
    for (int[] h : BucketIndexCheck.index(BucketIndexCheck.load(spark, dir("parts"), "dyn.parts")).get("d=x/").values()) {
      indexedX += h.length;
    }
    assertEquals(10, indexedX, "the overwritten partition indexes only its new keys");
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM lake.dyn.parts")), PaimonOracle.readRows(dir("parts")));
  }

  @Test
  void rowLevelStatementsKeepEveryKeyInItsBucket() {
    for (String dv : List.of("false", "true")) {
      String name = "dml_" + dv;
      String t = "lake.dyn." + name;
      sql("CREATE TABLE " + t + " (id INT, n INT) TBLPROPERTIES ('primary-key' = 'id', "
          + "'dynamic-bucket.target-row-num' = '60', 'deletion-vectors.enabled' = '" + dv + "')");
      sql("INSERT INTO " + t + " SELECT CAST(id AS INT), CAST(id AS INT) FROM range(0, 300)");
      sql("DELETE FROM " + t + " WHERE n % 10 = 3");
      sql("UPDATE " + t + " SET n = n + 1000 WHERE n % 10 = 5");
      // Changing the key retracts the old key in its bucket and gives the new key one.
      sql("UPDATE " + t + " SET id = id + 10000 WHERE n % 10 = 7");
      sql("MERGE INTO " + t + " t USING (SELECT CAST(id AS INT) AS id, CAST(id AS INT) AS n FROM range(290, 320)) s "
          + "ON t.id = s.id WHEN MATCHED THEN UPDATE SET n = -s.n WHEN NOT MATCHED THEN INSERT *");
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        if (i % 10 == 3) continue;
        if (i % 10 == 7) expected.add((i + 10000) + "," + i);
        else expected.add(i + "," + (i >= 290 ? -i : i % 10 == 5 ? i + 1000 : i));
      }
      for (int i = 290; i < 320; i++) if (i >= 300 || i % 10 == 3 || i % 10 == 7) expected.add(i + "," + i);
      expected.sort(String::compareTo);
      assertEquals(expected, rows("SELECT * FROM " + t), "deletion vectors " + dv);
      check(name);
      assertEquals(SparkRows.renderAll(sql("SELECT * FROM " + t)), PaimonOracle.readRows(dir(name)),
          "Paimon 1.3.1 reads what Lagoon reads, deletion vectors " + dv);
    }
  }
}
