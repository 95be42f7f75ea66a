package io.lagoon.it.paimon09;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Lagoon's compaction and sorting of tables Paimon 0.9 created and wrote (deletion-vector,
 * partitioned primary-key, fixed-bucket append): Paimon 0.9 reads the same rows afterwards, and
 * its next writes and deletes land on top.
 */
@RequiresPaimon09
class Paimon09CompactionInteropTest {
  @TempDir
  static Path tmp;

  private static Paimon09Session session;

  @BeforeAll
  static void start() {
    Path warehouse = tmp.resolve("warehouse");
    session = Paimon09Session.builder(warehouse)
        .lakeCatalog(Paimon09Session.LAGOON_CATALOG, warehouse)
        .extension("io.lagoon.spark.extensions.LagoonSparkSessionExtensions")
        .conf("spark.sql.catalog.paimon.cache-enabled", "false")
        .create();
    session.sql("CREATE DATABASE IF NOT EXISTS paimon.cmp");
  }

  @AfterAll
  static void stop() {
    if (session != null) session.close();
  }

  private static List<String> read(String catalog, String table) {
    return SparkRows.renderAll(session.sql("SELECT * FROM " + catalog + ".cmp." + table));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "append_dv|TBLPROPERTIES ('deletion-vectors.enabled' = 'true')|",
      "append_sorted|TBLPROPERTIES ('deletion-vectors.enabled' = 'true')|, order_strategy => 'zorder', order_by => 'id,n'",
      "append_bucket|TBLPROPERTIES ('bucket' = '2', 'bucket-key' = 'id')|",
      "pk_part|PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '2')|",
      "pk_part_dv|PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '2', 'deletion-vectors.enabled' = 'true')|",
      "pk_minor|TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '1', 'write-only' = 'true')|, compact_strategy => 'minor'"})
  void lagoonCompactsWhatPaimonWrote(String name, String layout, String extra) {
    boolean pk = name.startsWith("pk");
    session.sql("CREATE TABLE paimon.cmp." + name + " (id INT NOT NULL, v STRING, n INT, p STRING" + (pk ? " NOT NULL" : "")
        + ") " + layout);
    for (int round = 0; round < 6; round++) {
      session.sql("INSERT INTO paimon.cmp." + name + " SELECT CAST(id AS INT), concat('r" + round + "-', id), CAST(id * 7 % 50 AS INT), "
          + "IF(id % 2 = 0, 'a', 'b') FROM range(" + (round * 20) + ", " + (round * 20 + 40) + ")");
    }
    if (!name.equals("pk_part") && !name.equals("pk_minor")) session.sql("DELETE FROM paimon.cmp." + name + " WHERE id % 5 = 0");
    List<String> before = read("paimon", name);
    assertEquals(before, read("lake", name));
    session.sql("CALL lake.sys.compact(table => 'cmp." + name + "'" + (extra == null ? "" : extra) + ")").collect();
    assertEquals(before, read("lake", name), "Lagoon after its compaction");
    assertEquals(before, read("paimon", name), "Paimon 0.9 after Lagoon's compaction");
    session.sql("INSERT INTO paimon.cmp." + name + " VALUES (1000, 'later', 1, 'a')");
    session.sql("DELETE FROM paimon.cmp." + name + " WHERE id = 21");
    assertEquals(read("paimon", name), read("lake", name), "after Paimon wrote on top");
  }
}
