package io.lagoon.it.procedures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.ddl.WarehouseListing;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code CALL} through Lagoon's SQL extensions: named and positional arguments, constant
 * expressions as values, a clear error naming the argument and the procedure's form for every bad
 * call (leaving the table as it was), and Spark's own statements parsing as before.
 */
class ProcedureCallTest extends LagoonSparkTest {
  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.calls");
    sql("CREATE TABLE lake.calls.t (id INT, v STRING)");
    sql("INSERT INTO lake.calls.t VALUES (1, 'a')");
    sql("INSERT INTO lake.calls.t VALUES (2, 'b')");
  }

  @Test
  void namedPositionalAndQualifiedCallsAllWork() {
    assertEquals(List.of("true"), rows("CALL lake.sys.create_tag(table => 'calls.t', tag => 'named', snapshot => 1)"));
    assertEquals(List.of("true"), rows("CALL lake.sys.create_tag('calls.t', 'positional', 2)"));
    assertEquals(List.of("true"), rows("call lake.SYS.CREATE_TAG(`TABLE` => 'lake.calls.t', Tag => 'mixed-case')"));
    // Constant expressions are evaluated: 1 + 0 is snapshot 1.
    assertEquals(List.of("true"), rows("CALL lake.sys.create_tag(table => 'calls.t', tag => concat('ex', 'pr'), snapshot => 1 + 0)"));
    assertEquals(List.of("1,a"), rows("SELECT * FROM lake.calls.t VERSION AS OF 'expr'"));
    assertEquals(List.of("1,a", "2,b"), rows("SELECT * FROM lake.calls.t VERSION AS OF 'positional'"));
    // The session's current catalog and namespace name the procedure's catalog and the table.
    sql("USE lake.calls");
    try {
      assertEquals(List.of("true"), rows("CALL sys.create_tag(table => 't', tag => 'unqualified')"));
      assertEquals(List.of("1,a", "2,b"), rows("SELECT * FROM t VERSION AS OF 'unqualified'"));
    } finally {
      sql("USE spark_catalog.default");
    }
    assertEquals(List.of("result"), List.of(sql("CALL lake.sys.delete_tag(table => 'calls.t', tag => 'named,expr')").columns()));
    assertEquals(List.of("mixed-case", "positional", "unqualified"), tagNames());
  }

  private static List<String> tagNames() {
    java.io.File dir = warehouse.resolve("calls.db").resolve("t").resolve("tag").toFile();
    return java.util.Arrays.stream(dir.list()).map(n -> n.substring(4)).sorted().toList();
  }

  private static void refused(String call, String... expected) {
    WarehouseListing.assertRefusedUnchanged(warehouse, () -> sql(call).collect(), expected);
  }

  @Test
  void badCallsAreRefusedNamingWhatIsWrong() {
    refused("CALL lake.sys.no_such(table => 'calls.t')", "Unknown procedure sys.no_such", "create_tag", "expire_snapshots");
    refused("CALL lake.nosys.create_tag(table => 'calls.t')", "[catalog.]sys.<procedure>");
    refused("CALL lake.sys.create_tag(table => 'calls.t')", "needs argument 'tag'",
        "Usage: CALL sys.create_tag(table => <string>, tag => <string>, [snapshot => <long>], [time_retained => <string>])");
    refused("CALL lake.sys.create_tag(table => 'calls.t', tag => 'x', snapshots => 1)", "has no parameter 'snapshots'",
        "[table, tag, snapshot, time_retained]");
    refused("CALL lake.sys.create_tag(table => 'calls.t', tag => 'x', snapshot => 'one')", "argument 'snapshot' must be a whole number",
        "'one'");
    refused("CALL lake.sys.create_tag(table => 'calls.t', tag => 'x', snapshot => 99)", "snapshot 99 does not exist",
        "snapshots are 1..2");
    refused("CALL lake.sys.create_tag(table => 'calls.t', tag => 'x', tag => 'y')", "got argument 'tag' twice");
    refused("CALL lake.sys.create_tag('calls.t', 'x', 1, '1 d', 'extra')", "takes at most 4 arguments");
    refused("CALL lake.sys.create_tag(table => 'calls.t', 'x')", "not mixed");
    refused("CALL lake.sys.create_tag(table => 'calls.nope', tag => 'x')", "calls.nope", "does not exist");
    refused("CALL lake.sys.create_tag(table => 'a.b.c.d', tag => 'x')", "'database.table'");
    refused("CALL lake.sys.create_tag(table => 'calls.t', tag => 'x', time_retained => 'soon')", "time_retained",
        "not a duration");
    refused("CALL lake.sys.create_tag(table => 'calls.t', tag => 'x', snapshot => rand())", "must be a constant");
    refused("CALL lake.sys.create_tag(table => 'calls.t', tag => 'x', snapshot => id)", "not a constant");
    refused("CALL lake.sys.create_tag(table => 'calls.t', tag => 'x', snapshot => 1 +)", "snapshot", "not a valid value");
    refused("CALL lake.sys.create_tag(table => 'calls.t', tag => 'a/b')", "Invalid tag name 'a/b'");
    refused("CALL lake.sys.create_tag(table => 'calls.t', tag => ' ')", "blank");
    refused("CALL spark_catalog.sys.create_tag(table => 'calls.t', tag => 'x')", "is not a Lagoon catalog");
    refused("CALL lake.sys.expire_snapshots(table => 'calls.t', retain_min => 0)", "retain_min must be at least 1");
    refused("CALL lake.sys.expire_snapshots(table => 'calls.t', older_than => 'yesterday')", "older_than",
        "a time such as '2024-06-01 12:30:00'");
    refused("CALL lake.sys.rollback(table => 'calls.t', snapshot => 1, tag => 'x')", "give exactly one");
    refused("CALL lake.sys.rollback(table => 'calls.t')", "give exactly one");
  }

  @Test
  void sparksOwnStatementsStillParse() {
    assertEquals(List.of("3"), rows("SELECT 1 + 2"));
    assertEquals(List.of("2"), rows("SELECT count(*) FROM lake.calls.t"));
    sql("CREATE OR REPLACE TEMP VIEW callers AS SELECT 'CALL sys.x()' AS s");
    assertEquals(List.of("CALL sys.x()"), rows("SELECT * FROM callers"));
    assertTrue(sql("EXPLAIN SELECT * FROM lake.calls.t").collectAsList().get(0).getString(0).contains("BatchScan"));
    sql("CREATE TABLE lake.calls.other (x INT)");
    sql("INSERT INTO lake.calls.other SELECT id FROM lake.calls.t");
    assertEquals(List.of("1", "2"), rows("SELECT * FROM lake.calls.other"));
    sql("DESCRIBE TABLE lake.calls.other").collect();
    sql("SHOW TABLES IN lake.calls").collect();
    sql("DROP TABLE lake.calls.other");
    // A column named call is still a column.
    assertEquals(List.of("7"), rows("SELECT call FROM (SELECT 7 AS call)"));
  }

  /**
   * A procedure that changes what a table holds refreshes Spark's cached data of it: a cached
   * table, and a cached query over it, show the rollback; without a cache the next read does.
   */
  @Test
  void aCachedTableSeesTheProcedureChange() {
    sql("CREATE TABLE lake.calls.cached (id INT)");
    sql("CREATE TABLE lake.calls.uncached (id INT)");
    for (String t : new String[] {"cached", "uncached"}) {
      sql("INSERT INTO lake.calls." + t + " VALUES (1)");
      sql("INSERT INTO lake.calls." + t + " VALUES (2), (3)");
    }
    try {
      sql("CACHE TABLE lake.calls.cached");
      sql("CACHE TABLE doubled AS SELECT id * 2 AS d FROM lake.calls.cached");
      assertEquals(List.of("3"), rows("SELECT count(*) FROM lake.calls.cached"));
      assertEquals(List.of("12"), rows("SELECT sum(d) FROM doubled"));
      sql("CALL lake.sys.rollback(table => 'calls.cached', snapshot => 1)").collect();
      assertEquals(List.of("1"), rows("SELECT count(*) FROM lake.calls.cached"));
      assertEquals(List.of("2"), rows("SELECT sum(d) FROM doubled"));
      sql("CALL lake.sys.rollback(table => 'calls.uncached', snapshot => 1)").collect();
      assertEquals(List.of("1"), rows("SELECT * FROM lake.calls.uncached"));
    } finally {
      sql("UNCACHE TABLE IF EXISTS doubled");
      sql("UNCACHE TABLE IF EXISTS lake.calls.cached");
      sql("DROP TABLE lake.calls.cached");
      sql("DROP TABLE lake.calls.uncached");
    }
  }
}
