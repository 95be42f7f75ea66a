package io.lagoon.it.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.SparkPlan;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Partition pruning and min/max file skipping for every supported predicate shape, checked both
 * for the answer and for the number of files the scan skipped (the Spark UI metric), and each
 * mechanism's own counter (partition, min/max stats, key range).
 */
class ScanPruningTest extends LagoonSparkTest {

  @BeforeAll
  static void table() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.pr");
    sql("CREATE TABLE lake.pr.t (id BIGINT, s STRING, d DATE, x DOUBLE, p INT) PARTITIONED BY (p) TBLPROPERTIES ('write-only' = 'true')");
    // 10 commits, one file (and one manifest) each: ids 0..99 in file k hold [k*10, k*10+9]; p = k % 2
    for (int k = 0; k < 10; k++) {
      sql("INSERT INTO lake.pr.t SELECT id, concat('s', lpad(CAST(id AS STRING), 3, '0')), "
          + "date_add(DATE'2024-01-01', CAST(id AS INT)), CASE WHEN id % 10 = 0 THEN NULL ELSE id * 1.5 END, "
          + (k % 2) + " FROM range(" + (k * 10) + ", " + (k * 10 + 10) + ", 1, 1)");
    }
  }

  private static long[] scanAndSkip(String where) {
    Dataset<Row> df = sql("SELECT count(*) FROM lake.pr.t WHERE " + where);
    df.collect();
    Map<String, Long> m = metrics(df.queryExecution().executedPlan());
    return new long[] {m.getOrDefault("lagoonFilesScanned", -1L), m.getOrDefault("lagoonFilesSkipped", -1L),
        m.getOrDefault("lagoonManifestsSkipped", -1L)};
  }

  static Map<String, Long> metrics(SparkPlan plan) {
    return io.lagoon.it.oracle.PlanMetrics.ofScans(plan);
  }

  private static void check(String where, long expectedCount, long expectedScanned) {
    assertEquals(list(Long.toString(expectedCount)), rows("SELECT count(*) FROM lake.pr.t WHERE " + where), where);
    long[] m = scanAndSkip(where);
    assertEquals(expectedScanned, m[0], "files scanned for " + where);
    // one file per commit and per manifest: what was not scanned was skipped, by manifest or by file stats
    assertEquals(10 - expectedScanned, m[1] + m[2], "files skipped for " + where);
  }

  @Test
  void partitionFilters() {
    check("p = 1", 50, 5);
    assertEquals(5, scanAndSkip("p = 1")[2], "manifests pruned by partition stats");
    check("p IN (0)", 50, 5);
    check("p > 5", 0, 0);
  }

  @Test
  void minMaxSkippingOnEachComparison() {
    check("id = 42", 1, 1);
    check("id < 15", 15, 2);
    check("id <= 10", 11, 2);
    check("id > 89", 10, 1);
    check("id >= 89", 11, 2);
    check("id IN (3, 55, 1000)", 2, 2);
    check("id = 42 OR id = 77", 2, 2);
    check("id > 20 AND id < 30", 9, 1);
    check("NOT (id >= 10)", 10, 1);
    check("s = 's042'", 1, 1);
    check("d = DATE'2024-01-05'", 1, 1);
    check("x > 140.0", 6, 1);
  }

  /** The Spark UI shows what skipped each file: its partition, its stats, its index, a runtime filter. */
  @Test
  void skippedFilesAreCountedByMechanism() {
    Map<String, Long> stats = metrics(executed("SELECT count(*) FROM lake.pr.t WHERE id = 42"));
    assertEquals(9L, stats.get("lagoonFilesSkippedByStats"));
    assertEquals(0L, stats.get("lagoonFilesSkippedByPartition"));
    assertEquals(0L, stats.get("lagoonFilesSkippedByIndex"));
    assertEquals(0L, stats.get("lagoonFilesSkippedAtRunTime"));
    // One commit writing both partitions: one manifest, so the files of p = 0 are skipped one by one.
    sql("CREATE TABLE lake.pr.two (id BIGINT, p INT) PARTITIONED BY (p)");
    sql("INSERT INTO lake.pr.two VALUES (1, 0), (2, 1), (3, 2)");
    Map<String, Long> part = metrics(executed("SELECT count(*) FROM lake.pr.two WHERE p = 1"));
    assertEquals(2L, part.get("lagoonFilesSkippedByPartition"));
    assertEquals(1L, part.get("lagoonFilesScanned"));
    assertEquals(0L, stats.get("lagoonFilesSkippedByKeyRange"), "an append table has no keys");
    // A primary-key table prunes by the range of keys each file holds, counted as such.
    sql("CREATE TABLE lake.pr.keyed (id BIGINT NOT NULL, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1', "
        + "'write-only' = 'true')");
    for (int k = 0; k < 4; k++) sql("INSERT INTO lake.pr.keyed SELECT id, 'v' FROM range(" + (k * 10) + ", " + (k * 10 + 10) + ")");
    Map<String, Long> keyed = metrics(executed("SELECT count(*) FROM lake.pr.keyed WHERE id = 25"));
    assertEquals(3L, keyed.get("lagoonFilesSkippedByKeyRange"));
    assertEquals(0L, keyed.get("lagoonFilesSkippedByStats"));
    assertEquals(1L, keyed.get("lagoonFilesScanned"));
    assertEquals(list("1"), rows("SELECT count(*) FROM lake.pr.keyed WHERE id = 25"));
    // EXPLAIN names the filters each mechanism can use.
    String append = sql("EXPLAIN SELECT * FROM lake.pr.t WHERE p = 1 AND id = 42 AND s LIKE '%7'").first().getString(0);
    assertTrue(uses(append, "partition").contains("EqualTo(p,1)") && !uses(append, "partition").contains("id"), append);
    assertTrue(uses(append, "stats").contains("EqualTo(id,42)") && !uses(append, "stats").contains("StringEndsWith"), append);
    assertTrue(!append.contains("keyRange="), append);
    String pk = sql("EXPLAIN SELECT * FROM lake.pr.keyed WHERE id = 25 AND v = 'x'").first().getString(0);
    String keyRange = uses(pk, "keyRange");
    assertTrue(keyRange.contains("EqualTo(id,25)") && !pk.contains("stats="), pk);
    assertTrue(!keyRange.contains("(v,") && !keyRange.contains("(v)"), "a value column decides no key range: " + keyRange);
    // A partitioned key: its partition column is decided by partition, the rest by key range.
    sql("CREATE TABLE lake.pr.pkp (id BIGINT NOT NULL, p INT NOT NULL, v STRING) PARTITIONED BY (p) TBLPROPERTIES ("
        + "'primary-key' = 'id,p', 'bucket' = '1')");
    String and = sql("EXPLAIN SELECT * FROM lake.pr.pkp WHERE p = 1 AND id = 3").first().getString(0);
    assertTrue(uses(and, "partition").contains("EqualTo(p,1)") && uses(and, "keyRange").contains("EqualTo(id,3)")
        && !uses(and, "keyRange").contains("(p,"), and);
    String or = sql("EXPLAIN SELECT * FROM lake.pr.pkp WHERE p = 1 OR id = 3").first().getString(0);
    assertTrue(!uses(or, "keyRange").contains("Or(") && !uses(or, "partition").contains("Or("), or);
  }

  /** The filters EXPLAIN lists for one mechanism ({@code name=[...]}); empty when it lists none. */
  private static String uses(String explain, String mechanism) {
    int at = explain.indexOf(" " + mechanism + "=[");
    return at < 0 ? "" : explain.substring(at, explain.indexOf(']', at) + 1);
  }

  private static SparkPlan executed(String query) {
    Dataset<Row> df = sql(query);
    df.collect();
    return df.queryExecution().executedPlan();
  }

  @Test
  void nullCountsSkipFiles() {
    check("x IS NULL", 10, 10);
    check("s IS NULL", 0, 0);
    check("s IS NOT NULL", 100, 10);
  }

  @Test
  void limitAndStatistics() {
    assertEquals(3, sql("SELECT * FROM lake.pr.t LIMIT 3").collectAsList().size());
    Dataset<Row> df = sql("SELECT * FROM lake.pr.t");
    scala.Option<scala.math.BigInt> rowCount = df.queryExecution().optimizedPlan().stats().rowCount();
    assertTrue(rowCount.isDefined());
    assertEquals(100L, rowCount.get().longValue());
  }

  @Test
  void parquetRowGroupsAreSkippedInsideAFile() throws Exception {
    sql("CREATE TABLE lake.pr.rg (id BIGINT, pad STRING) TBLPROPERTIES ('parquet.block.size'='65536')");
    spark.range(0, 200_000, 1, 1).selectExpr("id", "repeat('x', 20) AS pad").writeTo("lake.pr.rg").append();
    Dataset<Row> df = sql("SELECT id FROM lake.pr.rg WHERE id = 123456");
    assertEquals(list("123456"), render(df.collectAsList()));
    Map<String, Long> m = metrics(df.queryExecution().executedPlan());
    assertEquals(1L, m.get("lagoonFilesScanned"));
    // one file, many row groups: the reader returns only the row group holding the id
    long rowsOutOfScan = m.get("numOutputRows");
    assertTrue(rowsOutOfScan > 0 && rowsOutOfScan < 50_000, "rows read: " + rowsOutOfScan);
  }
}
