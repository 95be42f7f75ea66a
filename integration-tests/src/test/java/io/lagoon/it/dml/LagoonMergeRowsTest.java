package io.lagoon.it.dml;

import static io.lagoon.it.dml.MergeOracle.matchedDelete;
import static io.lagoon.it.dml.MergeOracle.matchedUpdate;
import static io.lagoon.it.dml.MergeOracle.notMatchedInsert;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.oracle.RequiresPaimon131;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    views();
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

  private static String table(Kind kind) {
    String t = "lake.dml.probe_" + kind.name().toLowerCase();
    sql("CREATE TABLE IF NOT EXISTS " + t + " (id INT" + (kind.pk ? " NOT NULL" : "") + ", v STRING, n INT, p STRING) "
        + kind.ddl);
    return t;
  }
}
