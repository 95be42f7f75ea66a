package io.lagoon.it.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Copy-on-write DELETE and UPDATE under Lagoon's SQL extensions: the rewrite's tasks find the
 * files with matching rows themselves (no runtime group-filter job), read and replace only those,
 * and leave every other file in place under its name; the rows are what plain Spark computes and
 * Paimon 1.3.1 reads the same.
 */
@RequiresPaimon131
class InTaskGroupFilterTest extends LagoonSparkTest {
  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.itf");
  }

  /** Six files, ids [100k, 100k + 100) each, n = id % 7 or NULL when id % 10 = 0. */
  private static void sixFiles(String t) {
    // No compaction on write: each INSERT stays one file.
    sql("CREATE TABLE lake.itf." + t + " (id INT, n INT, v STRING) TBLPROPERTIES ('write-only' = 'true')");
    for (int k = 0; k < 6; k++) {
      sql("INSERT INTO lake.itf." + t + " SELECT /*+ COALESCE(1) */ CAST(id AS INT), IF(id % 10 = 0, NULL, CAST(id % 7 AS INT)), "
          + "CONCAT('v', id) FROM range(" + k * 100 + ", " + (k * 100 + 100) + ")");
    }
  }

  private static Set<String> files(String t) {
    return new TreeSet<>(rows("SELECT DISTINCT _file FROM lake.itf." + t));
  }

  private static long snapshots(String t) {
    return sql("SELECT count(*) FROM lake.itf.`" + t + "$snapshots`").first().getLong(0);
  }

  private static void sameInPaimon(String t) {
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM lake.itf." + t)),
        PaimonOracle.readRows(warehouse.resolve("itf.db").resolve(t)), "Paimon 1.3.1 reads what Lagoon reads");
  }

  @Test
  void onlyFilesWithMatchesAreReplacedWithoutAGroupFilterJob() {
    sixFiles("del");
    Set<String> before = files("del");
    assertEquals(6, before.size());
    String delete = "DELETE FROM lake.itf.del WHERE pmod(hash(id), 1000) = pmod(hash(250), 1000) OR id * 2 = 1002";
    String plan = String.join("\n", rows("EXPLAIN " + delete));
    assertFalse(plan.toLowerCase(java.util.Locale.ROOT).contains("dynamicpruning"), plan);
    List<String> expected = rows("SELECT * FROM lake.itf.del WHERE NOT (pmod(hash(id), 1000) = pmod(hash(250), 1000) "
        + "OR id * 2 = 1002)");
    List<String> hit = rows("SELECT DISTINCT _file FROM lake.itf.del WHERE pmod(hash(id), 1000) = pmod(hash(250), 1000) "
        + "OR id * 2 = 1002");
    assertTrue(hit.size() >= 2 && hit.size() < 6, hit.toString());
    sql(delete);
    assertEquals(expected, rows("SELECT * FROM lake.itf.del"));
    Set<String> after = files("del");
    Set<String> kept = new TreeSet<>(before);
    kept.removeAll(hit);
    assertTrue(after.containsAll(kept), "files without matches stay: " + after + " against " + kept);
    for (String f : hit) assertFalse(after.contains(f), f + " was replaced");
    sameInPaimon("del");

    // Nothing matches: no file is read whole, nothing is committed.
    long n = snapshots("del");
    sql("DELETE FROM lake.itf.del WHERE id > 10000 OR upper(v) = 'NONE'");
    assertEquals(n, snapshots("del"));
    assertEquals(after, files("del"));
  }

  @Test
  void anUpdateReplacesOnlyItsFilesAndNullsNeverMatch() {
    sixFiles("upd");
    Set<String> before = files("upd");
    // n > 5 is true for n = 6 only; rows with NULL n (id % 10 = 0) never match. Only ids < 200.
    String condition = "n + 0 > 5 AND id < 200";
    List<String> expected = rows("SELECT id, IF(" + condition + ", -1, n), v FROM lake.itf.upd");
    List<String> hit = rows("SELECT DISTINCT _file FROM lake.itf.upd WHERE " + condition);
    assertEquals(2, hit.size());
    sql("UPDATE lake.itf.upd SET n = -1 WHERE " + condition);
    assertEquals(expected, rows("SELECT * FROM lake.itf.upd"));
    Set<String> after = files("upd");
    for (String f : before) assertEquals(!hit.contains(f), after.contains(f), f);
    assertEquals(List.of("0"), rows("SELECT count(*) FROM lake.itf.upd WHERE n IS NULL AND id % 10 <> 0"));
    sameInPaimon("upd");
  }

  /**
   * A file read in several ranges by several tasks: each range decides on the whole file, so a
   * match in one row group rewrites every range and no row is lost.
   */
  @Test
  void aFileSplitAcrossTasksIsReadWholeWhenAnyRowMatches() {
    sql("CREATE TABLE lake.itf.split (id INT, v STRING) TBLPROPERTIES ('parquet.block.size' = '20000', "
        + "'write-only' = 'true')");
    sql("INSERT INTO lake.itf.split SELECT /*+ COALESCE(1) */ CAST(id AS INT), CONCAT('value-', id) FROM range(0, 60000)");
    assertEquals(1, files("split").size());
    spark.conf().set("spark.sql.files.maxPartitionBytes", "60000");
    try {
      sql("DELETE FROM lake.itf.split WHERE id * 1 = 59999");
    } finally {
      spark.conf().unset("spark.sql.files.maxPartitionBytes");
    }
    assertEquals(List.of("59999", "0", "59998"), rows("SELECT count(*), min(id), max(id) FROM lake.itf.split")
        .stream().flatMap(r -> List.of(r.split(",")).stream()).toList());
    sameInPaimon("split");
  }

  /** Files written before a column was added read it as NULL, so a condition on it never matches them. */
  @Test
  void filesOfAnOlderSchemaAreCheckedOnTheirOwnColumns() {
    sixFiles("evo");
    sql("ALTER TABLE lake.itf.evo ADD COLUMN c INT");
    sql("INSERT INTO lake.itf.evo SELECT /*+ COALESCE(1) */ CAST(id AS INT), 1, 'new', CAST(id % 3 AS INT) FROM range(1000, 1030)");
    Set<String> before = files("evo");
    List<String> expected = rows("SELECT * FROM lake.itf.evo WHERE NOT (coalesce(c, -1) + 0 = 2)");
    sql("DELETE FROM lake.itf.evo WHERE c + 0 = 2");
    assertEquals(expected, rows("SELECT * FROM lake.itf.evo"));
    Set<String> after = files("evo");
    List<String> untouched = new ArrayList<>(before);
    untouched.retainAll(after);
    assertEquals(6, untouched.size(), "the six files of the older schema stay: " + after);
    sameInPaimon("evo");
  }
}
