package io.lagoon.it.pk;

import static io.lagoon.it.ddl.WarehouseListing.assertRefusedUnchanged;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.schema.SchemaManager;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.it.LagoonSparkTest;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * How Spark plans a write into a primary-key table: a shuffle by Paimon's bucket (resolved
 * through the catalog's {@code paimon_bucket} function) and a sort by partition and key (never by
 * the bucket, which would hash rows at every comparison);
 * and the writes this version refuses, which leave the warehouse untouched.
 */
class PkWritePlanTest extends LagoonSparkTest {
  /** How Spark prints a call of the catalog's function: applyfunctionexpression(paimon_bucket, args...). */
  private static final String FN = "applyfunctionexpression\\(paimon_bucket, ";

  @BeforeAll
  static void tables() {
    sql("CREATE NAMESPACE lake.w");
    sql("CREATE TABLE lake.w.flat (id BIGINT, name STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '3')");
    sql("CREATE TABLE lake.w.parts (id INT, ts TIMESTAMP_NTZ, dt STRING, v DOUBLE) PARTITIONED BY (dt) "
        + "TBLPROPERTIES ('primary-key' = 'dt,id,ts', 'bucket' = '5')");
  }

  private static String plan(String statement) {
    return sql("EXPLAIN " + statement).collectAsList().get(0).getString(0);
  }

  private static void assertMatches(String regex, String plan) {
    assertTrue(Pattern.compile(regex, Pattern.DOTALL).matcher(plan).find(), "expected /" + regex + "/ in\n" + plan);
  }

  @Test
  void unpartitionedWriteShufflesIntoOneTaskPerBucket() {
    String p = plan("INSERT INTO lake.w.flat VALUES (1, 'a'), (2, 'b')");
    // hashpartitioning(paimon_bucket_task(3, ["BIGINT NOT NULL"], id), 3): as many tasks as
    // buckets, each bucket in its own task.
    String bucket = "applyfunctionexpression\\(paimon_bucket_task, 3, \\[\"BIGINT NOT NULL\"\\], id#\\d+L\\)";
    assertMatches("Exchange hashpartitioning\\(" + bucket + ", 3\\)", p);
    assertMatches("Sort \\[id#\\d+L ASC NULLS FIRST\\]", p);
  }

  @Test
  void partitionedWriteClustersByPartitionAndBucketOfTheTrimmedKey() {
    String p = plan("INSERT INTO lake.w.parts SELECT CAST(id AS INT), timestamp_ntz'2024-01-01 00:00:00', "
        + "'d' || (id % 3), 0.5 FROM range(10)");
    // The bucket key is the primary key minus the partition column, with its exact Paimon types.
    String bucket = FN + "5, \\[\"INT NOT NULL\",\"TIMESTAMP\\(6\\) NOT NULL\"\\], id#\\d+, ts#\\d+\\)";
    assertMatches("Exchange hashpartitioning\\(dt#\\d+, " + bucket + ", 4\\)", p);
    assertMatches("Sort \\[dt#\\d+ ASC NULLS FIRST, id#\\d+ ASC NULLS FIRST, ts#\\d+ ASC NULLS FIRST\\]", p);
  }

  @Test
  void overwriteAndDataFrameWritesUseTheSameLayout() {
    assertMatches("Exchange hashpartitioning\\(dt#\\d+, " + FN + "5,",
        plan("INSERT OVERWRITE lake.w.parts PARTITION (dt = 'x') SELECT 1, timestamp_ntz'2024-01-01 00:00:00', 0.5"));
    spark.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
    try {
      assertMatches("Exchange hashpartitioning\\(dt#\\d+, " + FN + "5,", plan("INSERT OVERWRITE lake.w.parts "
          + "SELECT 1, timestamp_ntz'2024-01-01 00:00:00', 'x', 0.5"));
    } finally {
      spark.conf().unset("spark.sql.sources.partitionOverwriteMode");
    }
  }

  /**
   * Key columns are stored NOT NULL, so Spark itself refuses a NULL key before any file is
   * written. Its message names the column ("Null value appeared in non-nullable field: id"); a
   * literal NULL is caught while Spark optimizes the statement, which it words as an internal error.
   */
  @Test
  void nullKeyIsRefusedNamingTheColumn() {
    assertRefusedUnchanged(warehouse, () -> sql("INSERT INTO lake.w.flat VALUES (CAST(NULL AS BIGINT), 'a')"),
        "null value appeared in non-nullable field:\nid");
    assertRefusedUnchanged(warehouse, () -> sql("INSERT INTO lake.w.parts SELECT 1, timestamp_ntz'2024-01-01 00:00:00', "
        + "IF(id = 2, NULL, 'd'), 0.5 FROM range(4)"), "null value appeared in non-nullable field:\ndt");
    assertRefusedUnchanged(warehouse, () -> spark.range(3).selectExpr("IF(id = 1, NULL, id) AS id", "'x' AS name")
        .writeTo("lake.w.flat").append(), "null value appeared in non-nullable field:\nid");
  }

  @Test
  void tablesThisVersionCannotWriteAreRefusedUntouched() throws IOException {
    tableWithOptions("changelog", Map.of("bucket", "2", "changelog-producer", "full-compaction"));
    tableWithOptions("badbucket", Map.of("bucket", "-3"));
    assertRefusedUnchanged(warehouse, () -> sql("INSERT INTO lake.w.changelog VALUES (1, 'a')"),
        "primary-key table w.changelog", "'changelog-producer'='full-compaction'", "compaction");
    assertRefusedUnchanged(warehouse, () -> sql("INSERT INTO lake.w.badbucket VALUES (1, 'a')"),
        "primary-key table w.badbucket", "not a positive number of buckets");
    assertRefusedUnchanged(warehouse, () -> sql("TRUNCATE TABLE lake.w.changelog"), "primary-key table w.changelog");
  }

  /**
   * A table as another engine could have made it: options Lagoon refuses at CREATE are set by
   * publishing a second schema version directly.
   */
  private static void tableWithOptions(String name, Map<String, String> options) throws IOException {
    sql("CREATE TABLE lake.w." + name + " (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    SchemaManager schemas = new SchemaManager(new FileIO(new Configuration()),
        new Path(warehouse.resolve("w.db/" + name).toUri()));
    TableSchema s = schemas.latest().orElseThrow();
    Map<String, String> o = new LinkedHashMap<>(s.options());
    o.remove("bucket");
    o.putAll(options);
    assertTrue(schemas.tryCommit(s.withOptions(1, o, System.currentTimeMillis())));
  }
}
