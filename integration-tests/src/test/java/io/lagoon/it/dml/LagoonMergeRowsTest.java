package io.lagoon.it.dml;

import static io.lagoon.it.dml.MergeOracle.matchedDelete;
import static io.lagoon.it.dml.MergeOracle.matchedUpdate;
import static io.lagoon.it.dml.MergeOracle.notMatchedInsert;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.oracle.RequiresPaimon131;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every MERGE case of {@link RowLevelSqlTest} on every table kind with Lagoon's SQL extensions,
 * where the MERGE's clauses run in {@code LagoonMergeRowsExec} instead of Spark's operator: the
 * rows, the cardinality error, NULL keys and the sources are checked against plain Spark as there.
 * Also a MERGE that changes a key, which a delta write plans as a delete plus an insert (a split row).
 */
@RequiresPaimon131
class LagoonMergeRowsTest extends RowLevelSqlTest {
  @BeforeAll
  static void withExtensions() {
    useExtensions();
  }

  static Stream<Arguments> kindsAndCases() {
    List<Case> merges = new ArrayList<>();
    for (Case c : cases()) if (c.statement.startsWith("MERGE")) merges.add(c);
    merges.add(merge("merge changing keys", "src", "t.id = s.id AND t.p = s.p",
        matchedDelete("s.n IS NULL"), matchedUpdate("t.n < 10", "t.id + 1000", "s.v", "", ""),
        matchedUpdate(null, "", "", "", "'z'"), notMatchedInsert(null, "s.id", "s.v", "s.n", "s.p")));
    List<Arguments> out = new ArrayList<>();
    for (Kind k : Kind.values()) for (Case c : merges) out.add(Arguments.of(k, c));
    return out.stream();
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void theClausesRunInLagoonsOperator(Kind kind) {
    String plan = String.join("\n", rows("EXPLAIN MERGE INTO " + table(kind) + " t USING src s ON t.id = s.id "
        + "WHEN MATCHED THEN UPDATE SET t.v = s.v WHEN NOT MATCHED THEN INSERT *"));
    assertTrue(plan.contains("LagoonMergeRowsExec["), plan);
  }

  /**
   * Carried-over rows are handed on as the joined row's leading fields without a copy, which only
   * holds while both rows have the same null-bit width: here the joined rows have more than 64
   * fields and the target's fewer, so the rows are copied, and must still come out whole.
   */
  @ParameterizedTest
  @MethodSource("kinds")
  void aWideTablesCarriedOverRowsComeOutWhole(Kind kind) {
    List<String> cols = new ArrayList<>();
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      cols.add("c" + i + " INT");
      values.add("id * 100 + " + i + " AS c" + i);
    }
    String t = "lake.dml.wide_" + kind.name().toLowerCase();
    sql("CREATE TABLE " + t + " (id INT" + (kind.pk ? " NOT NULL" : "") + ", v STRING, " + String.join(", ", cols)
        + ", p STRING) " + kind.ddl);
    String select = "SELECT CAST(id AS INT) AS id, concat('v', id) AS v, " + String.join(", ", values)
        + ", CAST(id % 3 AS STRING) AS p FROM range(";
    sql("INSERT INTO " + t + " " + select + "0, 30)");
    sql("CREATE OR REPLACE TEMP VIEW wide_src AS " + select + "25, 35)");
    sql("MERGE INTO " + t + " t USING wide_src s ON t.id = s.id AND t.p = s.p "
        + "WHEN MATCHED THEN UPDATE SET t.v = 'updated' WHEN NOT MATCHED THEN INSERT *");
    String expected = "SELECT id, CASE WHEN id >= 25 AND id < 30 THEN 'updated' ELSE v END AS v, "
        + String.join(", ", values.stream().map(x -> x.substring(x.lastIndexOf(' ') + 1)).toList()) + ", p FROM ("
        + select + "0, 35))";
    assertEquals(rows(expected), rows("SELECT * FROM " + t));
  }

  /**
   * What makes every read of a MERGE's source see one state: its Lagoon tables are fixed to the
   * snapshot that was latest when the plan rules ran, so a commit between two of the reads'
   * planning (which no SQL statement can place on purpose) changes none of them.
   */
  @org.junit.jupiter.api.Test
  void aPinnedSourceReadsTheSnapshotItWasPinnedAt() {
    sql("CREATE TABLE lake.dml.pin_probe (id INT, v STRING)");
    sql("INSERT INTO lake.dml.pin_probe VALUES (1, 'a')");
    org.apache.spark.sql.catalyst.plans.logical.LogicalPlan pinned = io.lagoon.spark.extensions.PinnedSource.of(
        spark.table("lake.dml.pin_probe").queryExecution().analyzed());
    sql("INSERT INTO lake.dml.pin_probe VALUES (2, 'b')");
    org.apache.spark.sql.Dataset.ofRows(spark, pinned).createOrReplaceTempView("pin_probe_view");
    assertEquals(List.of("1,a"), rows("SELECT * FROM pin_probe_view"));
    assertEquals(List.of("1,a", "2,b"), rows("SELECT * FROM lake.dml.pin_probe"));
  }

  /**
   * A source that is a Lagoon table is read more than once (the join, the pruning filter's
   * subquery, the NOT MATCHED side), and every read sees the snapshot of the MERGE's planning:
   * a row committed to the source after planning, before the MERGE runs, changes nothing.
   */
  @ParameterizedTest
  @MethodSource("kinds")
  void aSourceTableIsReadAsOfOneSnapshot(Kind kind) throws Exception {
    String t = "lake.dml.pinned_" + kind.name().toLowerCase();
    String s = t + "_src";
    sql("CREATE TABLE " + t + " (id INT" + (kind.pk ? " NOT NULL" : "") + ", v STRING, n INT, p STRING) " + kind.ddl);
    sql("INSERT INTO " + t + " SELECT * FROM initial");
    sql("CREATE TABLE " + s + " AS SELECT * FROM src WHERE id IN (2, 9, 101)");
    String on = kind == Kind.PK_FLAT ? "t.id = s.id" : "t.id = s.id AND t.p = s.p";
    String merge = "MERGE INTO " + t + " t USING " + s + " s ON " + on
        + " WHEN MATCHED THEN UPDATE SET t.v = s.v WHEN NOT MATCHED THEN INSERT *";
    org.apache.spark.sql.execution.QueryExecution qe = spark.sessionState().executePlan(
        spark.sessionState().sqlParser().parsePlan(merge), org.apache.spark.sql.execution.CommandExecutionMode$.MODULE$.SKIP());
    qe.executedPlan();
    // After planning: a row that would update id 5 and one that would be inserted.
    sql("INSERT INTO " + s + " VALUES (5, 'late', 0, 'c'), (104, 'late', 0, 'a')");
    qe.executedPlan().executeCollect();
    String expected = MergeOracle.expectedMerge("initial", "(SELECT * FROM src WHERE id IN (2, 9, 101))", on,
        List.of(matchedUpdate(null, "", "s.v", "", ""), notMatchedInsert(null, "s.id", "s.v", "s.n", "s.p")));
    assertEquals(rows(expected), rows("SELECT id, v, n, p FROM " + t));
  }

  private static String table(Kind kind) {
    String t = "lake.dml.probe_" + kind.name().toLowerCase();
    sql("CREATE TABLE IF NOT EXISTS " + t + " (id INT" + (kind.pk ? " NOT NULL" : "") + ", v STRING, n INT, p STRING) "
        + kind.ddl);
    return t;
  }
}
