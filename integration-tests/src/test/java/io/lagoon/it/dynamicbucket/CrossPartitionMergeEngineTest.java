package io.lagoon.it.dynamicbucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.ddl.WarehouseListing;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A key written into another partition of a cross-partition table, per merge engine as Paimon
 * defines it: deduplicate moves the key (see {@link CrossPartitionWriteTest}); partial-update and
 * aggregation merge the record where the key lives, ignoring its new partition; first-row keeps
 * the first row and drops the record. Paimon 1.3.1 reads the same rows, and no key is ever live
 * in two buckets.
 */
class CrossPartitionMergeEngineTest extends LagoonSparkTest {
  @BeforeAll
  static void ns() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.cross");
  }

  @Test
  void partialUpdateMergesWhereTheKeyLives() {
    sql("CREATE TABLE lake.cross.pu (id INT, a STRING, b STRING, d STRING) PARTITIONED BY (d) TBLPROPERTIES ("
        + "'primary-key' = 'id', 'merge-engine' = 'partial-update')");
    sql("INSERT INTO lake.cross.pu VALUES (1, 'a', NULL, 'x'), (2, 'a2', 'b2', 'x')");
    sql("INSERT INTO lake.cross.pu VALUES (1, NULL, 'b', 'y'), (3, 'c', NULL, 'y')");
    assertEquals(List.of("1,a,b,x", "2,a2,b2,x", "3,c,null,y"), rows("SELECT * FROM lake.cross.pu"));
    CrossPartitionWriteTest.sameInPaimon("pu");
    CrossPartitionWriteTest.assertLiveRecordsInOneBucket("pu");

    // An UPDATE of other columns merges in place.
    sql("UPDATE lake.cross.pu SET a = 'z' WHERE id = 1");
    assertEquals(List.of("1,z,b,x", "2,a2,b2,x", "3,c,null,y"), rows("SELECT * FROM lake.cross.pu"));

    // A row-level statement that asks for another partition is refused: the engine would ignore it.
    List<String> snapshots = rows("SELECT snapshot_id FROM lake.cross.`pu$snapshots`");
    for (String statement : List.of("UPDATE lake.cross.pu SET d = 'y', a = 'q' WHERE id = 1",
        "MERGE INTO lake.cross.pu t USING (SELECT 2 AS id, 'm' AS a, 'y' AS d) s ON t.id = s.id "
            + "WHEN MATCHED THEN UPDATE SET t.a = s.a, t.d = s.d")) {
      String m = WarehouseListing.messages(assertThrows(Exception.class, () -> sql(statement)));
      assertTrue(m.contains("partial-update") && m.contains("d=y") && m.contains("d=x")
          && m.contains("only 'deduplicate' tables move keys"), m);
      assertEquals(List.of("1,z,b,x", "2,a2,b2,x", "3,c,null,y"), rows("SELECT * FROM lake.cross.pu"));
      assertEquals(snapshots, rows("SELECT snapshot_id FROM lake.cross.`pu$snapshots`"));
    }
  }

  @Test
  void partialUpdateKeepsEveryKeyInItsPartitionOverManyTasks() {
    sql("CREATE TABLE lake.cross.pu_many (id INT, a STRING, b STRING, d STRING) PARTITIONED BY (d) TBLPROPERTIES ("
        + "'primary-key' = 'id', 'merge-engine' = 'partial-update', 'dynamic-bucket.target-row-num' = '50')");
    sql("INSERT INTO lake.cross.pu_many SELECT CAST(id AS INT), CONCAT('a', id), NULL, CAST(id % 3 AS STRING) "
        + "FROM range(0, 400)");
    // Every other key arrives again in the next partition with only b set; new keys 400..449 too.
    sql("INSERT INTO lake.cross.pu_many SELECT CAST(id AS INT), NULL, CONCAT('b', id), CAST((id + 1) % 3 AS STRING) "
        + "FROM range(0, 450) WHERE id % 2 = 0");
    Map<Integer, String> expected = new TreeMap<>();
    for (int id = 0; id < 450; id++) {
      if (id < 400) {
        expected.put(id, "a" + id + "," + (id % 2 == 0 ? "b" + id : "null") + "," + id % 3);
      } else if (id % 2 == 0) {
        expected.put(id, "null,b" + id + "," + (id + 1) % 3);
      }
    }
    List<String> rows = new ArrayList<>();
    for (Map.Entry<Integer, String> e : expected.entrySet()) rows.add(e.getKey() + "," + e.getValue());
    rows.sort(String::compareTo);
    assertEquals(rows, rows("SELECT * FROM lake.cross.pu_many"));
    CrossPartitionWriteTest.sameInPaimon("pu_many");
    CrossPartitionWriteTest.assertLiveRecordsInOneBucket("pu_many");
  }

  @Test
  void aggregationFoldsIntoTheRowWhereTheKeyLives() {
    sql("CREATE TABLE lake.cross.agg (id INT, n BIGINT, d STRING) PARTITIONED BY (d) TBLPROPERTIES ("
        + "'primary-key' = 'id', 'merge-engine' = 'aggregation', 'fields.n.aggregate-function' = 'sum')");
    sql("INSERT INTO lake.cross.agg VALUES (1, 10, 'x'), (2, 20, 'y')");
    sql("INSERT INTO lake.cross.agg VALUES (1, 5, 'y'), (2, 1, 'y'), (3, 7, 'z')");
    sql("INSERT INTO lake.cross.agg VALUES (1, 100, 'z')");
    assertEquals(List.of("1,115,x", "2,21,y", "3,7,z"), rows("SELECT * FROM lake.cross.agg"));
    CrossPartitionWriteTest.sameInPaimon("agg");
    CrossPartitionWriteTest.assertLiveRecordsInOneBucket("agg");
  }

  @Test
  void firstRowDropsARecordOfAKeyLivingElsewhere() {
    sql("CREATE TABLE lake.cross.fr (id INT, v STRING, d STRING) PARTITIONED BY (d) TBLPROPERTIES ("
        + "'primary-key' = 'id', 'merge-engine' = 'first-row')");
    sql("INSERT INTO lake.cross.fr VALUES (1, 'a', 'x'), (2, 'b', 'x')");
    sql("INSERT INTO lake.cross.fr VALUES (1, 'a-moved', 'y'), (2, 'b-again', 'x'), (3, 'c', 'y')");
    assertEquals(List.of("1,a,x", "2,b,x", "3,c,y"), rows("SELECT * FROM lake.cross.fr"));
    CrossPartitionWriteTest.sameInPaimon("fr");
    CrossPartitionWriteTest.assertLiveRecordsInOneBucket("fr");
  }
}
