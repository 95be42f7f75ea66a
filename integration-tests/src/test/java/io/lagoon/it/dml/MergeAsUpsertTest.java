package io.lagoon.it.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.ddl.WarehouseListing;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * With Lagoon's SQL extensions, a plain upsert MERGE into a deduplicate primary-key table runs as
 * an upsert write of the source (no join, no read of the target) and gives exactly what Spark's
 * general MERGE gives; every other MERGE shape still takes the general path, and Spark's own
 * statements still parse.
 */
class MergeAsUpsertTest extends LagoonSparkTest {
  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.up");
    sql("CREATE OR REPLACE TEMP VIEW changes AS SELECT * FROM VALUES (2, 'two', 20), (3, CAST(NULL AS STRING), 30), "
        + "(9, 'nine', 90) AS x(id, v, n)");
  }

  private static String table(String name, String properties) {
    String t = "lake.up." + name;
    sql("CREATE TABLE " + t + " (id INT NOT NULL, v STRING, n INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2'"
        + properties + ")");
    sql("INSERT INTO " + t + " VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)");
    return t;
  }

  private static String plan(String statement) {
    return sql("EXPLAIN " + statement).collectAsList().get(0).getString(0);
  }

  private static final String UPSERT = "MERGE INTO %s t USING changes s ON t.id = s.id "
      + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *";

  @Test
  void anUpsertMergeIsAnUpsertWriteWithTheGeneralPathsResult() {
    for (String dv : List.of("", ", 'deletion-vectors.enabled' = 'true'")) {
      String fast = table("fast" + dv.length(), dv);
      String general = table("general" + dv.length(), dv);
      String upsertPlan = plan(String.format(UPSERT, fast));
      assertTrue(upsertPlan.contains("MERGE as upsert") && !upsertPlan.contains("Join")
          && !upsertPlan.contains("BatchScan up.fast"), upsertPlan);
      sql(String.format(UPSERT, fast));
      // The same MERGE with a condition that is always true takes Spark's general path.
      String generalMerge = "MERGE INTO " + general + " t USING changes s ON t.id = s.id "
          + "WHEN MATCHED AND s.n > 0 THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *";
      assertTrue(plan(generalMerge).contains("WriteDelta"), plan(generalMerge));
      sql(generalMerge);
      assertEquals(rows("SELECT * FROM " + general), rows("SELECT * FROM " + fast));
      assertEquals(list("1,a,1", "2,two,20", "3,null,30", "9,nine,90"), rows("SELECT * FROM " + fast));
    }
  }

  @Test
  void duplicateSourceKeysFailLikeTheGeneralMerge() {
    String t = table("dup", "");
    sql("CREATE OR REPLACE TEMP VIEW dup_changes AS SELECT * FROM changes UNION ALL SELECT 2, 'again', 0");
    List<String> before = rows("SELECT * FROM " + t);
    Throwable e = assertThrows(Throwable.class, () -> sql(String.format(UPSERT.replace("changes", "dup_changes"), t))
        .collectAsList());
    assertTrue(WarehouseListing.messages(e).contains("MERGE_CARDINALITY_VIOLATION"), WarehouseListing.messages(e));
    assertEquals(before, rows("SELECT * FROM " + t));
  }

  @Test
  void otherShapesTakeTheGeneralPath() {
    String partial = table("partial", ", 'merge-engine' = 'partial-update'");
    assertTrue(plan(String.format(UPSERT, partial)).contains("WriteDelta"));
    String t = table("shapes", "");
    for (String merge : List.of(
        "MERGE INTO " + t + " t USING changes s ON t.id = s.id AND t.n > 0 WHEN MATCHED THEN UPDATE SET * "
            + "WHEN NOT MATCHED THEN INSERT *",
        "MERGE INTO " + t + " t USING changes s ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.v = s.v "
            + "WHEN NOT MATCHED THEN INSERT *",
        "MERGE INTO " + t + " t USING changes s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * "
            + "WHEN NOT MATCHED THEN INSERT * WHEN NOT MATCHED BY SOURCE THEN DELETE",
        "MERGE INTO " + t + " t USING changes s ON t.id = s.id WHEN MATCHED THEN DELETE "
            + "WHEN NOT MATCHED THEN INSERT *")) {
      String p = plan(merge);
      assertTrue(p.contains("WriteDelta") && !p.contains("MERGE as upsert"), merge + "\n" + p);
    }
  }

  @Test
  void sparksOwnStatementsStillParse() {
    sql("CREATE TABLE lake.up.plain (id INT, v STRING)");
    sql("INSERT INTO lake.up.plain VALUES (1, 'x')");
    assertEquals(list("1,x"), rows("SELECT * FROM lake.up.plain"));
    assertFalse(rows("SHOW TABLES IN lake.up").isEmpty());
    assertEquals(list("2"), rows("SELECT 1 + 1"));
    sql("EXPLAIN SELECT * FROM lake.up.plain WHERE id = 1").collectAsList();
    sql("ALTER TABLE lake.up.plain SET TBLPROPERTIES ('k' = 'v')");
    sql("DESCRIBE TABLE EXTENDED lake.up.plain").collectAsList();
  }
}
