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
 * Cross-partition tables of each merge engine, written in turn by Paimon 0.9's Spark connector
 * and by Lagoon: a record of a key that lives in another partition does what Paimon's own writer
 * does with it (deduplicate moves the key; partial-update and aggregation merge it where the key
 * lives; first-row drops it), so both engines agree on every row after every write.
 */
@RequiresPaimon09
class Paimon09CrossPartitionEngineTest {
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
    session.sql("CREATE DATABASE IF NOT EXISTS paimon.xe");
  }

  @AfterAll
  static void stop() {
    if (session != null) session.close();
  }

  private static List<String> read(String catalog, String table) {
    return SparkRows.renderAll(session.sql("SELECT * FROM " + catalog + ".xe." + table));
  }

  /**
   * @param expected the rows after Paimon writes keys 1 and 2, Lagoon writes key 1 into partition
   *     y and key 3, then Paimon writes key 1 into partition z and Lagoon key 2 into partition z
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "dedup|'merge-engine' = 'deduplicate'|1,p1,l1,z;2,l2,l2,z;3,l3,l3,y",
      "pu|'merge-engine' = 'partial-update'|1,p1,l1,x;2,p2,null,x;3,l3,null,y",
      "agg|'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'max', "
          + "'fields.b.aggregate-function' = 'max'|1,p1,l1,x;2,p2,null,x;3,l3,null,y",
      "fr|'merge-engine' = 'first-row'|1,p0,null,x;2,p2,null,x;3,l3,null,y"})
  void eachEngineTreatsAKeyFromAnotherPartitionAsPaimonDoes(String name, String options, String expected) {
    boolean dedup = name.equals("dedup");
    session.sql("CREATE TABLE paimon.xe." + name + " (id INT NOT NULL, a STRING, b STRING, d STRING) PARTITIONED BY (d) "
        + "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '-1', " + options + ")");
    session.sql("INSERT INTO paimon.xe." + name + " VALUES (1, 'p0', NULL, 'x'), (2, 'p2', NULL, 'x')");
    // Key 1 into y: moved (deduplicate), merged in x, or dropped (first-row).
    session.sql("INSERT INTO lake.xe." + name + " VALUES (1, " + (dedup ? "'l1'" : "NULL") + ", 'l1', 'y'), "
        + "(3, 'l3', " + (dedup ? "'l3'" : "NULL") + ", 'y')");
    assertEquals(read("lake", name), read("paimon", name), name + ": Paimon 0.9 reads what Lagoon wrote");
    session.sql("INSERT INTO paimon.xe." + name + " VALUES (1, 'p1', "
        + (dedup ? "'l1'" : "NULL") + ", 'z')");
    session.sql("INSERT INTO lake.xe." + name + " VALUES (2, " + (dedup ? "'l2', 'l2'" : "NULL, NULL") + ", 'z')");
    List<String> lagoon = read("lake", name);
    assertEquals(lagoon, read("paimon", name), name + ": Paimon 0.9 reads what Lagoon reads");
    List<String> values = lagoon.stream().map(r -> r.replaceAll("\\w+=", "").replace(", ", ",")).toList();
    assertEquals(List.of(expected.split(";")), values, name);
  }
}
