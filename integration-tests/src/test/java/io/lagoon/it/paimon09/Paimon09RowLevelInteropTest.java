package io.lagoon.it.paimon09;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * DELETE, UPDATE and MERGE by Lagoon on tables created and written by Lagoon or by Paimon 0.9
 * (its Spark catalog on the same warehouse), with and without deletion vectors: after every
 * statement Paimon 0.9 reads the same rows as Lagoon, and Paimon's writes that follow land on top;
 * on fixed-bucket append tables every row, whoever wrote it, lies in Paimon's bucket.
 */
@RequiresPaimon09
class Paimon09RowLevelInteropTest {
  @TempDir
  static Path tmp;

  private static Paimon09Session session;

  @BeforeAll
  static void start() {
    Path warehouse = tmp.resolve("warehouse");
    session = Paimon09Session.builder(warehouse)
        .lakeCatalog(Paimon09Session.LAGOON_CATALOG, warehouse)
        .conf("spark.sql.catalog.paimon.cache-enabled", "false")
        .create();
    session.sql("CREATE DATABASE IF NOT EXISTS paimon.rl");
  }

  @AfterAll
  static void stop() {
    if (session != null) session.close();
  }

  private static List<String> read(String catalog, String table) {
    return SparkRows.renderAll(session.sql("SELECT * FROM " + catalog + ".rl." + table));
  }

  private static void same(String table, String after) {
    List<String> paimon = read("paimon", table);
    assertEquals(read("lake", table), paimon, table + " after " + after + ": Paimon 0.9 reads what Lagoon reads");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "append_l|lake|PARTITIONED BY (p)",
      "append_p|paimon|PARTITIONED BY (p)",
      "append_dv_l|lake|PARTITIONED BY (p) TBLPROPERTIES ('deletion-vectors.enabled' = 'true')",
      "append_dv_p|paimon|PARTITIONED BY (p) TBLPROPERTIES ('deletion-vectors.enabled' = 'true')",
      "append_bk_l|lake|PARTITIONED BY (p) TBLPROPERTIES ('bucket' = '3', 'bucket-key' = 'id')",
      "append_bk_p|paimon|PARTITIONED BY (p) TBLPROPERTIES ('bucket' = '3', 'bucket-key' = 'id')",
      "append_bk_dv_l|lake|PARTITIONED BY (p) TBLPROPERTIES ('bucket' = '3', 'bucket-key' = 'id', 'deletion-vectors.enabled' = 'true')",
      "append_bk_dv_p|paimon|PARTITIONED BY (p) TBLPROPERTIES ('bucket' = '3', 'bucket-key' = 'id', 'deletion-vectors.enabled' = 'true')",
      "pk_l|lake|PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '2')",
      "pk_p|paimon|PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '2')",
      "pk_dv_l|lake|PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '2', 'deletion-vectors.enabled' = 'true')",
      "pk_dv_p|paimon|PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '2', 'deletion-vectors.enabled' = 'true')",
      "pk_dyn_l|lake|PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'id,p', 'dynamic-bucket.target-row-num' = '6')",
      "pk_dyn_p|paimon|PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '-1', 'dynamic-bucket.target-row-num' = '6')",
      "pk_dyn_dv_l|lake|PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'id,p', 'dynamic-bucket.target-row-num' = '6', 'deletion-vectors.enabled' = 'true')",
      "pk_dyn_dv_p|paimon|PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '-1', 'dynamic-bucket.target-row-num' = '6', 'deletion-vectors.enabled' = 'true')",
      "pk_cross_l|lake|PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'id', 'dynamic-bucket.target-row-num' = '6')",
      "pk_cross_p|paimon|PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '-1', 'dynamic-bucket.target-row-num' = '6')"})
  void lagoonStatementsReadTheSameInPaimon(String name, String creator, String layout) {
    boolean pk = name.startsWith("pk");
    session.sql("CREATE TABLE " + creator + ".rl." + name + " (id INT" + (pk ? " NOT NULL" : "") + ", v STRING, n INT, "
        + "p STRING) " + layout);
    String t = "lake.rl." + name;
    // The creator writes the first rows, in two commits.
    session.sql("INSERT INTO " + creator + ".rl." + name + " SELECT CAST(id AS INT), concat('v', id), CAST(id AS INT), "
        + "IF(id % 2 = 0, 'a', 'b') FROM range(0, 40) WHERE id < 20");
    session.sql("INSERT INTO " + creator + ".rl." + name + " SELECT CAST(id AS INT), concat('v', id), CAST(id AS INT), "
        + "IF(id % 2 = 0, 'a', 'b') FROM range(20, 40)");
    session.sql("DELETE FROM " + t + " WHERE n % 5 = 0");
    same(name, "DELETE");
    session.sql("UPDATE " + t + " SET v = upper(v), n = n * 10 WHERE id > 30");
    same(name, "UPDATE");
    session.sql("MERGE INTO " + t + " t USING (SELECT CAST(id AS INT) AS id, concat('m', id) AS v, 0 AS n, "
        + "IF(id % 2 = 0, 'a', 'b') AS p FROM range(35, 45)) s ON t.id = s.id AND t.p = s.p "
        + "WHEN MATCHED AND t.n > 360 THEN DELETE WHEN MATCHED THEN UPDATE SET t.v = s.v "
        + "WHEN NOT MATCHED THEN INSERT *");
    same(name, "MERGE");
    session.sql("DELETE FROM " + t + " WHERE p = 'b'");
    same(name, "DELETE of a partition");
    // Paimon writes on top of what Lagoon's statements left.
    session.sql("INSERT INTO paimon.rl." + name + " VALUES (1000, 'paimon', 1, 'a')");
    same(name, "Paimon's INSERT");
    // Paimon's upsert of a key Lagoon wrote last finds it where Lagoon left it (dynamic buckets:
    // in the bucket Lagoon's HASH index gives it), so the key stays live once.
    session.sql("INSERT INTO paimon.rl." + name + " VALUES (22, 'paimon-upsert', 2, 'a')");
    same(name, "Paimon's upsert");
    if (pk) {
      assertEquals(List.of("paimon-upsert"), session.sql("SELECT v FROM lake.rl." + name + " WHERE id = 22")
          .collectAsList().stream().map(r -> r.getString(0)).collect(java.util.stream.Collectors.toList()));
    }
    if (name.startsWith("pk_cross")) {
      // A key moves to another partition by either engine's write, and lives once.
      session.sql("INSERT INTO lake.rl." + name + " VALUES (24, 'moved-by-lagoon', 3, 'b')");
      same(name, "Lagoon's move");
      session.sql("INSERT INTO paimon.rl." + name + " VALUES (24, 'moved-by-paimon', 4, 'a')");
      same(name, "Paimon's move");
      assertEquals(List.of("24,a", "26,a"), session.sql("SELECT id, p FROM lake.rl." + name + " WHERE id IN (24, 26)")
          .collectAsList().stream().map(r -> r.getInt(0) + "," + r.getString(1)).sorted()
          .collect(java.util.stream.Collectors.toList()));
      // Lagoon overwrites partition b with key 26, which lived in a; Paimon then moves it back.
      session.sql("INSERT OVERWRITE lake.rl." + name + " PARTITION (p = 'b') VALUES (26, 'overwritten', 5)");
      same(name, "Lagoon's overwrite of a partition");
      assertEquals(List.of("26,b"), session.sql("SELECT id, p FROM lake.rl." + name + " WHERE id = 26")
          .collectAsList().stream().map(r -> r.getInt(0) + "," + r.getString(1))
          .collect(java.util.stream.Collectors.toList()));
      session.sql("INSERT INTO paimon.rl." + name + " VALUES (26, 'back-by-paimon', 6, 'a')");
      same(name, "Paimon's move after the overwrite");
    }
    List<String> rows = read("lake", name);
    assertFalse(rows.isEmpty());
    if (name.startsWith("append_bk")) {
      // Every row, whoever wrote it, lies in the bucket Paimon's hash of its bucket key picks.
      for (org.apache.spark.sql.Row r : session.sql("SELECT _file, lake.paimon_bucket(3, '[\"INT\"]', id) FROM lake.rl."
          + name).collectAsList()) {
        assertTrue(r.getString(0).contains("/bucket-" + r.getInt(1) + "/"), name + ": " + r);
      }
    }
    assertEquals(List.of(), session.rows("SELECT * FROM lake.rl." + name + " WHERE p = 'b'"));
  }
}
