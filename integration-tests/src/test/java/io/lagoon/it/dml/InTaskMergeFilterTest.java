package io.lagoon.it.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import io.lagoon.it.ddl.WarehouseListing;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Copy-on-write MERGE under Lagoon's SQL extensions ({@code MergeFilesInTasks}): instead of
 * Spark's group-filter job, the target scan takes the source's values of the key at run time and
 * its tasks read a file only when some row of it holds one (and passes the condition's target-only
 * part). Only files with matches are replaced, every other keeps its name, and the rows are what
 * plain Spark computes for the MERGE; Paimon 1.3.1 reads the same.
 */
@RequiresPaimon131
class InTaskMergeFilterTest extends LagoonSparkTest {
  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.itm");
  }

  /**
   * Six files over ids 0..599, file k holding the ids with id % 6 = k: every file's id range
   * covers nearly the whole table, so only the tasks' check of the values can tell them apart.
   */
  private static void interleaved(String t, String keyType) {
    sql("CREATE TABLE lake.itm." + t + " (id " + keyType + ", n INT, v STRING) TBLPROPERTIES ('write-only' = 'true')");
    for (int k = 0; k < 6; k++) {
      sql("INSERT INTO lake.itm." + t + " SELECT /*+ COALESCE(1) */ CAST(id AS " + keyType + "), CAST(id % 7 AS INT), "
          + "CONCAT('v', id) FROM range(0, 600) WHERE id % 6 = " + k);
    }
    assertEquals(6, files(t).size());
  }

  private static Set<String> files(String t) {
    return new TreeSet<>(rows("SELECT DISTINCT _file FROM lake.itm." + t));
  }

  private static long snapshots(String t) {
    return sql("SELECT count(*) FROM lake.itm.`" + t + "$snapshots`").first().getLong(0);
  }

  private static String explain(String statement) {
    return String.join("\n", rows("EXPLAIN " + statement)).toLowerCase(Locale.ROOT);
  }

  private static void sameInPaimon(String t) {
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM lake.itm." + t)),
        PaimonOracle.readRows(warehouse.resolve("itm.db").resolve(t)), "Paimon 1.3.1 reads what Lagoon reads");
  }

  /** The files of {@code t} holding a row {@code where} selects. */
  private static Set<String> filesWhere(String t, String where) {
    return new TreeSet<>(rows("SELECT DISTINCT _file FROM lake.itm." + t + " WHERE " + where));
  }

  /** Files in {@code hit} are replaced, every other file of {@code before} stays under its name. */
  private static void onlyReplaced(Set<String> before, Set<String> hit, Set<String> after) {
    for (String f : before) assertEquals(!hit.contains(f), after.contains(f), f + (hit.contains(f) ? " replaced" : " kept"));
  }

  @Test
  void onlyFilesHoldingASourceKeyAreReplaced() {
    interleaved("up", "INT");
    sql("CREATE OR REPLACE TEMPORARY VIEW itm_src AS SELECT * FROM VALUES (14, -1, 'new14'), (26, -1, 'new26'), "
        + "(1000, -1, 'new1000') AS s(id, n, v)");
    String merge = "MERGE INTO lake.itm.up t USING itm_src s ON t.id = s.id "
        + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *";
    String plan = explain(merge);
    assertTrue(plan.contains("runtimefilters: [dynamicpruningexpression(id#"), plan);
    assertFalse(plan.contains("dynamicpruningexpression(_file"), "no group filter by file: " + plan);
    // Nothing needs the rows' file paths, so the join and the merge do not carry them.
    // The clauses run in Lagoon's operator (no control exception per row).
    String mergeRows = plan.lines().filter(l -> l.contains("lagoonmergerowsexec[")).findFirst().orElseThrow();
    assertFalse(mergeRows.contains("_file"), mergeRows);
    assertFalse(plan.lines().anyMatch(l -> l.contains("broadcasthashjoin") && l.contains("_file")), plan);
    List<String> expected = rows("SELECT coalesce(s.id, t.id), coalesce(s.n, t.n), coalesce(s.v, t.v) "
        + "FROM lake.itm.up t FULL OUTER JOIN itm_src s ON t.id = s.id");
    Set<String> before = files("up");
    Set<String> hit = filesWhere("up", "id IN (14, 26)");
    assertEquals(1, hit.size());
    org.apache.spark.sql.execution.SparkPlan executed = sql(merge).queryExecution().executedPlan();
    assertEquals(expected, rows("SELECT * FROM lake.itm.up"));
    // The anti join finding the NOT MATCHED rows is against the target rows holding a source key only.
    assertEquals(List.of(2L), keyScanRows(executed));
    onlyReplaced(before, hit, files("up"));
    sameInPaimon("up");

    // A source none of whose keys is in the table replaces no file: it only inserts.
    before = files("up");
    sql("CREATE OR REPLACE TEMPORARY VIEW itm_src AS SELECT * FROM VALUES (5000, 1, 'x') AS s(id, n, v)");
    sql(merge);
    Set<String> after = files("up");
    assertTrue(after.containsAll(before) && after.size() == before.size() + 1, after.toString());
    assertEquals(List.of("5000,1,x"), rows("SELECT * FROM lake.itm.up WHERE id = 5000"));

    // A source with no rows commits nothing.
    long n = snapshots("up");
    sql("CREATE OR REPLACE TEMPORARY VIEW itm_src AS SELECT * FROM VALUES (1, 1, 'x') AS s(id, n, v) WHERE id < 0");
    sql("MERGE INTO lake.itm.up t USING itm_src s ON t.id = s.id WHEN MATCHED THEN DELETE");
    assertEquals(n, snapshots("up"));
  }

  /** The rows each MERGE keys scan ({@code MergeKeysScan}) of an executed plan returned. */
  private static List<Long> keyScanRows(org.apache.spark.sql.execution.SparkPlan plan) {
    List<Long> out = new java.util.ArrayList<>();
    java.util.ArrayDeque<org.apache.spark.sql.execution.SparkPlan> todo = new java.util.ArrayDeque<>(List.of(plan));
    while (!todo.isEmpty()) {
      org.apache.spark.sql.execution.SparkPlan p = todo.pop();
      if (p instanceof org.apache.spark.sql.execution.datasources.v2.BatchScanExec
          && ((org.apache.spark.sql.execution.datasources.v2.BatchScanExec) p).scan().getClass().getSimpleName()
              .equals("MergeKeysScan")) {
        out.add(p.metrics().apply("numOutputRows").value());
      }
      if (p instanceof org.apache.spark.sql.execution.CommandResultExec) {
        todo.push(((org.apache.spark.sql.execution.CommandResultExec) p).commandPhysicalPlan());
      } else if (p instanceof org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec) {
        todo.push(((org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec) p).executedPlan());
      } else if (p instanceof org.apache.spark.sql.execution.adaptive.QueryStageExec) {
        todo.push(((org.apache.spark.sql.execution.adaptive.QueryStageExec) p).plan());
      } else if (p instanceof org.apache.spark.sql.execution.exchange.ReusedExchangeExec) {
        todo.push(((org.apache.spark.sql.execution.exchange.ReusedExchangeExec) p).child());
      }
      scala.collection.Iterator<org.apache.spark.sql.execution.SparkPlan> children = p.children().iterator();
      while (children.hasNext()) todo.push(children.next());
    }
    return out;
  }

  /** A conjunct on the target alone narrows the files too: a key match it rules out is no match. */
  @Test
  void theConditionsTargetOnlyPartIsCheckedInTheTasks() {
    interleaved("cond", "BIGINT");
    // 13 is in file 1, 15 in file 3, whose row for 15 fails t.v <> 'v15': only file 1 has a match.
    sql("CREATE OR REPLACE TEMPORARY VIEW itm_src2 AS SELECT * FROM VALUES (13L, 'a'), (15L, 'b') AS s(id, v)");
    String merge = "MERGE INTO lake.itm.cond t USING itm_src2 s ON t.id = s.id AND t.v <> 'v15' "
        + "WHEN MATCHED THEN UPDATE SET t.v = s.v WHEN NOT MATCHED THEN INSERT (id, n, v) VALUES (s.id, 0, s.v)";
    List<String> expected = rows("SELECT coalesce(t.id, s.id), IF(t.id IS NULL, 0, t.n), IF(s.id IS NULL, t.v, s.v) "
        + "FROM lake.itm.cond t FULL OUTER JOIN itm_src2 s ON t.id = s.id AND t.v <> 'v15'");
    Set<String> before = files("cond");
    Set<String> hit = filesWhere("cond", "id = 13");
    sql(merge);
    assertEquals(expected, rows("SELECT * FROM lake.itm.cond"));
    assertEquals(List.of("15,1,v15", "15,0,b"), sql("SELECT * FROM lake.itm.cond WHERE id = 15 ORDER BY n DESC")
        .collectAsList().stream().map(r -> r.get(0) + "," + r.get(1) + "," + r.get(2)).toList());
    onlyReplaced(before, hit, files("cond"));
    sameInPaimon("cond");
  }

  /** NULL keys never match: a file whose only candidate rows have a NULL key is kept. */
  @Test
  void nullKeysOnEitherSideNeverMatch() {
    sql("CREATE TABLE lake.itm.nul (id STRING, v INT) TBLPROPERTIES ('write-only' = 'true')");
    sql("INSERT INTO lake.itm.nul SELECT /*+ COALESCE(1) */ IF(id % 2 = 0, NULL, CONCAT('k', id)), CAST(id AS INT) "
        + "FROM range(0, 50)");
    sql("INSERT INTO lake.itm.nul SELECT /*+ COALESCE(1) */ CONCAT('k', id), CAST(id AS INT) FROM range(50, 100)");
    sql("CREATE OR REPLACE TEMPORARY VIEW itm_src3 AS SELECT * FROM VALUES (CAST(NULL AS STRING), 1), ('k60', 2), "
        + "('k2', 3) AS s(id, v)");
    String merge = "MERGE INTO lake.itm.nul t USING itm_src3 s ON t.id = s.id "
        + "WHEN MATCHED THEN UPDATE SET t.v = -s.v WHEN NOT MATCHED THEN INSERT *";
    List<String> expected = rows("SELECT coalesce(t.id, s.id), CASE WHEN t.v IS NULL THEN s.v WHEN s.v IS NULL THEN t.v "
        + "ELSE -s.v END FROM lake.itm.nul t FULL OUTER JOIN itm_src3 s ON t.id = s.id");
    Set<String> before = files("nul");
    Set<String> hit = filesWhere("nul", "id = 'k60'");
    assertEquals(1, hit.size());
    sql(merge);
    assertEquals(expected, rows("SELECT * FROM lake.itm.nul"));
    onlyReplaced(before, hit, files("nul"));
    assertEquals(List.of("26"), rows("SELECT count(*) FROM lake.itm.nul WHERE id IS NULL"));
    sameInPaimon("nul");
  }

  /** A target row matched by two source rows raises Spark's error, and nothing is committed. */
  @Test
  void aTargetRowMatchedTwiceStillFailsAndChangesNothing() {
    interleaved("card", "INT");
    sql("CREATE OR REPLACE TEMPORARY VIEW itm_src4 AS SELECT * FROM VALUES (301, 9, 'x'), (301, 8, 'y'), (7, 1, 'z') "
        + "AS s(id, n, v)");
    List<String> before = rows("SELECT * FROM lake.itm.card");
    Set<String> beforeFiles = files("card");
    long n = snapshots("card");
    Throwable e = assertThrows(Throwable.class, () -> sql("MERGE INTO lake.itm.card t USING itm_src4 s ON t.id = s.id "
        + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *").collectAsList());
    assertTrue(WarehouseListing.messages(e).contains("MERGE_CARDINALITY_VIOLATION"), WarehouseListing.messages(e));
    assertEquals(n, snapshots("card"));
    assertEquals(before, rows("SELECT * FROM lake.itm.card"));
    assertEquals(beforeFiles, files("card"));
  }

  /**
   * Where the tasks cannot decide, Spark's own plan stays: with a NOT MATCHED BY SOURCE clause
   * every file is rewritten, a floating-point key (0.0 = -0.0 in SQL) keeps Spark's group filter,
   * and so does a session with dynamic pruning off. The rows are right in each.
   */
  @Test
  void otherwiseSparksGroupFilterOrAFullRewriteStays() {
    interleaved("bysrc", "INT");
    sql("CREATE OR REPLACE TEMPORARY VIEW itm_src5 AS SELECT * FROM VALUES (14, -1, 'new14') AS s(id, n, v)");
    String bySource = "MERGE INTO lake.itm.bysrc t USING itm_src5 s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * "
        + "WHEN NOT MATCHED BY SOURCE AND t.id = 0 THEN DELETE";
    assertFalse(explain(bySource).contains("dynamicpruningexpression"), explain(bySource));
    List<String> expected = rows("SELECT coalesce(s.id, t.id), coalesce(s.n, t.n), coalesce(s.v, t.v) "
        + "FROM lake.itm.bysrc t LEFT OUTER JOIN itm_src5 s ON t.id = s.id WHERE t.id <> 0");
    sql(bySource);
    assertEquals(expected, rows("SELECT * FROM lake.itm.bysrc"));
    sameInPaimon("bysrc");

    interleaved("dbl", "DOUBLE");
    sql("INSERT INTO lake.itm.dbl VALUES (CAST('-0.0' AS DOUBLE), 0, 'negative zero')");
    sql("CREATE OR REPLACE TEMPORARY VIEW itm_src6 AS SELECT * FROM VALUES (0.0D, 5, 'zero') AS s(id, n, v)");
    String dbl = "MERGE INTO lake.itm.dbl t USING itm_src6 s ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.v = s.v";
    assertTrue(explain(dbl).contains("dynamicpruningexpression(_file"), explain(dbl));
    sql(dbl);
    assertEquals(List.of("2"), rows("SELECT count(*) FROM lake.itm.dbl WHERE v = 'zero'"));

    interleaved("nodpp", "INT");
    spark.conf().set("spark.sql.optimizer.dynamicPartitionPruning.enabled", "false");
    try {
      sql("CREATE OR REPLACE TEMPORARY VIEW itm_src7 AS SELECT * FROM VALUES (14, -1, 'new14'), (700, 1, 'n') "
          + "AS s(id, n, v)");
      List<String> want = rows("SELECT coalesce(s.id, t.id), coalesce(s.n, t.n), coalesce(s.v, t.v) "
          + "FROM lake.itm.nodpp t FULL OUTER JOIN itm_src7 s ON t.id = s.id");
      sql("MERGE INTO lake.itm.nodpp t USING itm_src7 s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * "
          + "WHEN NOT MATCHED THEN INSERT *");
      assertEquals(want, rows("SELECT * FROM lake.itm.nodpp"));
    } finally {
      spark.conf().unset("spark.sql.optimizer.dynamicPartitionPruning.enabled");
    }
  }
}
