package io.lagoon.it.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.oracle.RequiresPaimon131;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.CommandExecutionMode$;
import org.apache.spark.sql.execution.QueryExecution;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Copy-on-write MERGE under Lagoon's SQL extensions ({@code CopyOnWriteMergeJoin}): with a small
 * source the target is joined where its files are read (broadcast source, no shuffle of the
 * target) and the rows to insert come from an anti join against the target's matching keys. Every
 * statement of {@link RowLevelSqlTest} on the append table kind gives the rows plain Spark gives
 * (and Paimon reads them); the plan shows the broadcast joins; a large source keeps Spark's plan;
 * and a commit between planning and running leaves the result of the MERGE committing first.
 */
@RequiresPaimon131
class CopyOnWriteMergeJoinTest extends RowLevelSqlTest {
  @BeforeAll
  static void withExtensions() {
    useExtensions();
  }

  /** The copy-on-write kind only: the other kinds do not take this plan. */
  static Stream<Arguments> kindsAndCases() {
    List<Arguments> out = new ArrayList<>();
    for (Case c : cases()) out.add(Arguments.of(Kind.APPEND, c));
    return out.stream();
  }

  static Stream<Kind> kinds() {
    return Stream.of(Kind.APPEND);
  }

  private static String explain(String statement) {
    return String.join("\n", rows("EXPLAIN " + statement));
  }

  @Test
  void aSmallSourceIsBroadcastAndTheTargetIsNotShuffled() {
    sql("CREATE TABLE lake.dml.cow_plan (id INT, v STRING)");
    sql("INSERT INTO lake.dml.cow_plan VALUES (1, 'a'), (2, 'b')");
    String upsert = "MERGE INTO lake.dml.cow_plan t USING src s ON t.id = s.id "
        + "WHEN MATCHED THEN UPDATE SET t.v = s.v WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)";
    String plan = explain(upsert);
    assertTrue(plan.contains("LeftOuter, BuildRight") && plan.contains("LeftAnti, BuildRight"), plan);
    assertFalse(plan.contains("SortMergeJoin") || plan.contains("FullOuter"), plan);
    // The source's key values prune both reads of the target (the rewrite and the keys the anti
    // join is against), so no semi join is needed before the anti join.
    assertEquals(2, plan.split("RuntimeFilters: \\[dynamicpruningexpression\\(id#", -1).length - 1, plan);
    assertFalse(plan.contains("LeftSemi"), plan);
    spark.conf().set("spark.sql.optimizer.dynamicPartitionPruning.enabled", "false");
    try {
      String unpruned = explain(upsert);
      assertTrue(unpruned.contains("LeftAnti, BuildRight") && unpruned.contains("LeftSemi, BuildRight"), unpruned);
    } finally {
      spark.conf().unset("spark.sql.optimizer.dynamicPartitionPruning.enabled");
    }

    // Without NOT MATCHED clauses the join is a left outer join already: only the broadcast changes.
    String update = explain("MERGE INTO lake.dml.cow_plan t USING src s ON t.id = s.id WHEN MATCHED THEN DELETE");
    assertTrue(update.contains("LeftOuter, BuildRight") && !update.contains("LeftAnti"), update);

    // A source Spark estimates large keeps Spark's plan.
    String large = explain("MERGE INTO lake.dml.cow_plan t USING (SELECT CAST(id AS INT) AS id, 'x' AS v "
        + "FROM range(0, 100000000)) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.v = s.v "
        + "WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)");
    assertTrue(large.contains("SortMergeJoin") && large.contains("FullOuter") && !large.contains("LeftAnti"), large);

    // A condition without an equality between the sides keeps Spark's plan too.
    String theta = explain("MERGE INTO lake.dml.cow_plan t USING src s ON t.id < s.id "
        + "WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)");
    assertTrue(theta.contains("FullOuter") && !theta.contains("LeftAnti"), theta);

    sql(upsert);
    assertEquals(rows("SELECT coalesce(s.id, t.id), coalesce(s.v, t.v) FROM (SELECT * FROM VALUES (1, 'a'), (2, 'b') "
        + "AS x(id, v)) t FULL OUTER JOIN src s ON t.id = s.id ORDER BY 1"), rows("SELECT * FROM lake.dml.cow_plan ORDER BY id"));
  }

  /**
   * The statement is planned (its reads fixed to the latest snapshot), then another writer commits
   * a row with a key the source inserts, then the statement runs. Both of its reads see the table
   * as planned: the source row is inserted (the rewrite never saw the other row, so it could not
   * update it) and the other writer's row stays, as if the MERGE had committed first.
   */
  @Test
  void theInsertDecisionReadsTheSnapshotTheRewriteReads() throws Exception {
    sql("CREATE TABLE lake.dml.cow_race (id INT, v STRING)");
    sql("INSERT INTO lake.dml.cow_race VALUES (1, 'a'), (2, 'b')");
    // NOT MATCHED BY SOURCE: Spark adds no file filter of its own, so only the pinned reads decide.
    String merge = "MERGE INTO lake.dml.cow_race t USING (SELECT * FROM VALUES (2, 'src2'), (7, 'src7') AS x(id, v)) s "
        + "ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.v = s.v WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v) "
        + "WHEN NOT MATCHED BY SOURCE THEN UPDATE SET t.v = concat(t.v, '-unmatched')";
    LogicalPlan parsed = spark.sessionState().sqlParser().parsePlan(merge);
    QueryExecution qe = spark.sessionState().executePlan(parsed, CommandExecutionMode$.MODULE$.SKIP());
    qe.executedPlan(); // optimized and planned: both reads are fixed to the snapshot with ids 1 and 2

    sql("INSERT INTO lake.dml.cow_race VALUES (7, 'other writer')");
    qe.executedPlan().executeCollect();

    assertEquals(List.of("1,a-unmatched", "2,src2", "7,other writer", "7,src7"),
        rows("SELECT * FROM lake.dml.cow_race ORDER BY id, v"));
  }
}
