package io.lagoon.it.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.SparkTypes;
import io.lagoon.it.LagoonSparkTest;
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
 * With Lagoon's SQL extensions, a MERGE into a primary-key table reads only the target files
 * whose key range holds a key of the source: EXPLAIN shows the runtime filter on the target scan,
 * the scan keeps only those files, and the result is what the general MERGE gives.
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
}
