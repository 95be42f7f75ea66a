package io.lagoon.it.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.SparkTypes;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.bench.StatementReads;
import io.lagoon.spark.read.KeyPruningScan;
import io.lagoon.spark.read.LagoonScanBuilder;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.LiteralValue;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * With Lagoon's SQL extensions, a MERGE into a primary-key table, or into an append table with
 * deletion vectors, reads only the target files whose range of the join column holds a value of
 * the source: EXPLAIN shows the runtime filter on the target scan, the scan keeps only those files,
 * and the result is what the general MERGE gives.
 */
class MergeTargetPruningTest extends LagoonSparkTest {
  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.prune");
  }

  /** Six commits of disjoint key ranges: per bucket, files whose key ranges do not overlap. */
  private static String table(String name, String properties) {
    String t = "lake.prune." + name;
    sql("CREATE TABLE " + t + " (id BIGINT NOT NULL, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', "
        + "'write-only' = 'true'" + properties + ")");
    for (int i = 0; i < 6; i++) {
      sql("INSERT INTO " + t + " SELECT id, 'x' FROM range(" + (i * 1000) + ", " + ((i + 1) * 1000) + ")");
    }
    return t;
  }

  /**
   * Two overlapping files form one merged section; the source's key lies in one of them only, so
   * pruning leaves that file alone, which is then read raw: the raw reader must exist although the
   * plan before pruning had no raw file.
   */
  @Test
  void aSectionLeftWithOneFileAfterPruningIsReadRaw() {
    String t = "lake.prune.overlap";
    sql("CREATE TABLE " + t + " (id INT NOT NULL, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1', "
        + "'write-only' = 'true')");
    sql("INSERT INTO " + t + " SELECT CAST(id AS INT), 'a' FROM range(1, 101)");
    sql("INSERT INTO " + t + " SELECT CAST(id AS INT), 'b' FROM range(50, 61)");
    sql("MERGE INTO " + t + " t USING (SELECT 10 AS id) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = 'x'");
    assertEquals(list("a,88", "b,11", "x,1"), rows("SELECT v, count(*) FROM " + t + " GROUP BY v"));
  }

  @Test
  void theMergeJoinPrunesTheTargetByTheSourceKeys() {
    String t = table("t", "");
    String merge = "MERGE INTO " + t + " t USING (SELECT id, 'm' AS v FROM range(2000, 2010) UNION ALL "
        + "SELECT 9000, 'new') s ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.v = s.v WHEN NOT MATCHED THEN INSERT *";
    String plan = sql("EXPLAIN " + merge).collectAsList().get(0).getString(0);
    assertTrue(plan.contains("RuntimeFilters: [dynamicpruningexpression(id"), plan);
    sql(merge);
    assertEquals(list("m,10", "new,1", "x,5990"), rows("SELECT v, count(*) FROM " + t + " GROUP BY v"));
    // A MERGE with NOT MATCHED BY SOURCE must see every target row: no pruning there.
    String bySource = "MERGE INTO " + t + " t USING (SELECT 1L AS id) s ON t.id = s.id WHEN NOT MATCHED BY SOURCE "
        + "AND t.id >= 5990 THEN DELETE";
    assertTrue(!sql("EXPLAIN " + bySource).collectAsList().get(0).getString(0).contains("dynamicpruning"));
    sql(bySource);
    assertEquals(list("m,10", "x,5980"), rows("SELECT v, count(*) FROM " + t + " GROUP BY v"));
  }

  @Test
  void theScanKeepsOnlyFilesWhoseKeyRangeHoldsAKey() throws Exception {
    table("scan", "");
    FileStoreTable core = FileStoreTable.load(new FileIO(spark.sparkContext().hadoopConfiguration()),
        new org.apache.hadoop.fs.Path(warehouse.resolve("prune.db/scan").toUri().toString()), "prune.scan");
    KeyPruningScan scan = (KeyPruningScan) new LagoonScanBuilder(core, SparkTypes.toSpark(core.schema().fields()))
        .withKeyPruning().build();
    assertEquals(12, scan.filesToRead(), "six commits into two buckets");
    Expression[] in = {Expressions.column("id"), LiteralValue.apply(2005L, DataTypes.LongType),
        LiteralValue.apply(2990L, DataTypes.LongType), LiteralValue.apply(5500L, DataTypes.LongType)};
    scan.filter(new Predicate[] {new Predicate("IN", in)});
    assertEquals(4, scan.filesToRead(), "keys in the ranges of commits 3 and 6, in both buckets");
    List<?> partitions = List.of(scan.planInputPartitions());
    assertTrue(!partitions.isEmpty());
  }

  /** An append table with deletion vectors: six commits of disjoint id ranges, a file each. */
  private static String appendTable(String name) {
    String t = "lake.prune." + name;
    sql("CREATE TABLE " + t + " (id BIGINT, code STRING, v STRING, d DOUBLE) TBLPROPERTIES ("
        + "'deletion-vectors.enabled' = 'true')");
    for (int i = 0; i < 6; i++) {
      sql("INSERT INTO " + t + " SELECT id, concat('c', CAST(id AS STRING)), 'x', CAST(id AS DOUBLE) FROM range("
          + (i * 1000) + ", " + ((i + 1) * 1000) + ", 1, 1)");
    }
    return t;
  }

  /** Data files the statement's Lagoon scans read, from their scan metric. */
  private static long filesScanned(String statement) {
    StatementReads reads = new StatementReads(spark);
    reads.start();
    sql(statement);
    return reads.stop().files;
  }

  @Test
  void aMergeIntoAnAppendTableWithVectorsPrunesByTheValueStatsOfTheJoinColumn() {
    String t = appendTable("dv");
    String merge = "MERGE INTO " + t + " t USING (SELECT id, 'm' AS v FROM range(2000, 2010) UNION ALL "
        + "SELECT 9000, 'new' UNION ALL SELECT CAST(NULL AS BIGINT), 'null key') s ON t.id = s.id "
        + "WHEN MATCHED THEN UPDATE SET t.v = s.v WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)";
    String plan = sql("EXPLAIN " + merge).collectAsList().get(0).getString(0);
    assertTrue(plan.contains("RuntimeFilters: [dynamicpruningexpression(id"), plan);
    assertEquals(1, filesScanned(merge), "only the file of ids 2000..2999 is read");
    assertEquals(list("m,10", "new,1", "null key,1", "x,5990"), rows("SELECT v, count(*) FROM " + t + " GROUP BY v"));
    assertEquals(list("2000,c2000,m"), rows("SELECT id, code, v FROM " + t + " WHERE id = 2000"));

    // A string join column prunes too; a source value in no file's range reads no target file.
    String byCode = "MERGE INTO " + t + " t USING (SELECT 'c4500' AS code, 'by code' AS v UNION ALL "
        + "SELECT 'zzz', 'absent') s ON t.code = s.code WHEN MATCHED THEN UPDATE SET t.v = s.v";
    assertTrue(sql("EXPLAIN " + byCode).collectAsList().get(0).getString(0)
        .contains("RuntimeFilters: [dynamicpruningexpression(code"));
    long read = filesScanned(byCode);
    assertTrue(read >= 1 && read < 6, "files whose code range holds c4500, not all six: " + read);
    assertEquals(list("4500,by code"), rows("SELECT id, v FROM " + t + " WHERE v = 'by code'"));

    // A floating join column never prunes (NaN matches NaN but lies outside any stats range).
    String byDouble = "MERGE INTO " + t + " t USING (SELECT CAST('NaN' AS DOUBLE) AS d, 'nan' AS v) s ON t.d = s.d "
        + "WHEN MATCHED THEN UPDATE SET t.v = s.v";
    assertTrue(!sql("EXPLAIN " + byDouble).collectAsList().get(0).getString(0).contains("dynamicpruning"));
  }

  @Test
  void aPrunedMergeIntoAnAppendTableGivesWhatTheGeneralMergeGives() {
    String t = appendTable("same");
    spark.createDataFrame(spark.table(t).collectAsList(), spark.table(t).schema()).createOrReplaceTempView("expected");
    String source = "(SELECT id * 7 AS id, 'm' AS v FROM range(0, 900) UNION ALL SELECT CAST(NULL AS BIGINT), 'n')";
    sql("MERGE INTO " + t + " t USING " + source + " s ON t.id = s.id "
        + "WHEN MATCHED AND t.id % 2 = 0 THEN DELETE WHEN MATCHED THEN UPDATE SET t.v = s.v "
        + "WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)");
    // The same statement by plain Spark on the rows read before it.
    String want = "SELECT id, v FROM (SELECT e.id, CASE WHEN s.id IS NOT NULL THEN s.v ELSE e.v END AS v,"
        + " s.id IS NOT NULL AND e.id % 2 = 0 AS dropped FROM (SELECT * FROM expected) e LEFT JOIN " + source
        + " s ON e.id = s.id) WHERE NOT dropped UNION ALL SELECT s.id, s.v FROM " + source
        + " s LEFT ANTI JOIN (SELECT * FROM expected) e ON e.id = s.id";
    List<String> expected = rows("SELECT v, count(*), sum(id) FROM (" + want + ") GROUP BY v ORDER BY v");
    assertEquals(expected, rows("SELECT v, count(*), sum(id) FROM " + t + " GROUP BY v ORDER BY v"));
  }
}
