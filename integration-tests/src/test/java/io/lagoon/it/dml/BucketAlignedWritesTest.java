package io.lagoon.it.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * With Lagoon's SQL extensions, a DELETE or an UPDATE of non-key columns on a primary-key table
 * reads one task per bucket and writes each task's rows where it read them, without the shuffle
 * to buckets; statements that move keys, and tables with a bucket too large for one task, keep
 * it. Every result is checked against the same change applied by plain Spark to a copy.
 */
class BucketAlignedWritesTest extends LagoonSparkTest {
  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.aligned");
  }

  /**
   * A partitioned table whose buckets hold raw files (a key range written once) and merged
   * sections (keys written twice, some retracted), and a plain copy of its rows.
   */
  private static String table(String name) {
    String t = "lake.aligned." + name;
    sql("CREATE TABLE " + t + " (p INT NOT NULL, id INT NOT NULL, v STRING, n INT) PARTITIONED BY (p) "
        + "TBLPROPERTIES ('primary-key' = 'p,id', 'bucket' = '3')");
    sql("INSERT INTO " + t + " SELECT id % 2, id, CAST(id AS STRING), id FROM range(0, 300) AS r(id)");
    sql("INSERT INTO " + t + " SELECT id % 2, id, CONCAT('b', id), CAST(NULL AS INT) FROM range(100, 200) AS r(id)");
    sql("INSERT INTO " + t + " SELECT id % 2, id, CONCAT('c', id), id FROM range(1000, 1100) AS r(id)");
    sql("DELETE FROM " + t + " WHERE id BETWEEN 150 AND 160");
    sql("CREATE OR REPLACE TEMP VIEW " + name + "_copy AS SELECT * FROM VALUES " + values(t) + " AS x(p, id, v, n)");
    sql("CACHE TABLE " + name + "_copy");
    return t;
  }

  private static String values(String t) {
    StringBuilder sb = new StringBuilder();
    for (org.apache.spark.sql.Row r : sql("SELECT * FROM " + t).collectAsList()) {
      if (sb.length() > 0) sb.append(", ");
      sb.append('(').append(r.getInt(0)).append(", ").append(r.getInt(1)).append(", ")
          .append(r.isNullAt(2) ? "CAST(NULL AS STRING)" : "'" + r.getString(2) + "'").append(", ")
          .append(r.isNullAt(3) ? "CAST(NULL AS INT)" : r.getInt(3)).append(')');
    }
    return sb.toString();
  }

  private static String plan(String statement) {
    return sql("EXPLAIN " + statement).collectAsList().get(0).getString(0);
  }

  @Test
  void deletesAndUpdatesOfNonKeyColumnsWriteEachBucketWhereItWasRead() {
    String t = table("plain");
    String update = "UPDATE " + t + " SET v = CONCAT(v, '!'), n = n + 1 WHERE id % 7 = 3 OR n IS NULL";
    String updatePlan = plan(update);
    assertTrue(updatePlan.contains("WriteDelta") && !updatePlan.contains("Exchange"), updatePlan);
    sql(update);
    assertEquals(rows("SELECT p, id, CASE WHEN id % 7 = 3 OR n IS NULL THEN CONCAT(v, '!') ELSE v END, "
        + "CASE WHEN id % 7 = 3 OR n IS NULL THEN n + 1 ELSE n END FROM plain_copy"), rows("SELECT * FROM " + t));

    String delete = "DELETE FROM " + t + " WHERE id % 5 = 1 OR v LIKE 'c10_!'";
    String deletePlan = plan(delete);
    assertTrue(deletePlan.contains("WriteDelta") && !deletePlan.contains("Exchange"), deletePlan);
    sql(delete);
    assertEquals(rows("SELECT p, id, v, n FROM (SELECT p, id, CASE WHEN id % 7 = 3 OR n IS NULL THEN CONCAT(v, '!') "
        + "ELSE v END AS v, CASE WHEN id % 7 = 3 OR n IS NULL THEN n + 1 ELSE n END AS n FROM plain_copy) "
        + "WHERE NOT COALESCE(id % 5 = 1 OR v LIKE 'c10_!', false)"), rows("SELECT * FROM " + t));
  }

  @Test
  void statementsThatMoveKeysOrJoinKeepTheShuffle() {
    String t = table("moving");
    String move = "UPDATE " + t + " SET id = id + 5000 WHERE id < 40";
    assertTrue(plan(move).contains("Exchange"), plan(move));
    sql(move);
    String sub = "DELETE FROM " + t + " WHERE id IN (SELECT id + 1 FROM moving_copy WHERE id % 9 = 0)";
    sql(sub);
    assertEquals(rows("SELECT * FROM (SELECT p, IF(id < 40, id + 5000, id) AS id, v, n FROM moving_copy) "
        + "WHERE id NOT IN (SELECT id + 1 FROM moving_copy WHERE id % 9 = 0)"), rows("SELECT * FROM " + t));
  }

  @Test
  void aBucketTooLargeForOneTaskKeepsTheShuffle() {
    String t = table("large");
    String update = "UPDATE " + t + " SET n = -n WHERE id % 3 = 0";
    spark.conf().set("spark.sql.files.maxPartitionBytes", "1024");
    spark.conf().set("spark.sql.files.openCostInBytes", "1024");
    try {
      String p = plan(update);
      assertTrue(p.contains("Exchange"), p);
      sql(update);
    } finally {
      spark.conf().unset("spark.sql.files.maxPartitionBytes");
      spark.conf().unset("spark.sql.files.openCostInBytes");
    }
    assertEquals(rows("SELECT p, id, v, IF(id % 3 = 0, -n, n) FROM large_copy"), rows("SELECT * FROM " + t));
    assertFalse(plan(update).contains("Exchange"), plan(update));
  }

  @Test
  void withoutTheExtensionsTheResultIsTheSame() {
    String t = table("noext");
    List<String> expected = rows("SELECT p, id, v, IF(id % 4 = 0, n * 2, n) FROM noext_copy WHERE id % 11 <> 5");
    spark.stop();
    spark = newSession(warehouse, Map.of());
    try {
      sql("UPDATE " + t + " SET n = n * 2 WHERE id % 4 = 0");
      sql("DELETE FROM " + t + " WHERE id % 11 = 5");
      assertEquals(expected, rows("SELECT * FROM " + t));
    } finally {
      spark.stop();
      withExtensions();
    }
  }
}
