package io.lagoon.it.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Scans of fixed-bucket tables report their layout when the session asks
 * ({@code spark.sql.lagoon.planning.preserve-data-grouping}, with Spark's
 * {@code spark.sql.sources.v2.bucketing.enabled}), so a join or an aggregation on the
 * bucket key of tables bucketed alike runs without a shuffle, with the answer of the shuffled
 * plan; tables bucketed differently, or on keys whose Spark type does not fix Paimon's hash, are
 * shuffled as before.
 */
class StoragePartitionedJoinTest extends LagoonSparkTest {
  @BeforeAll
  static void tables() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.spj");
    for (String t : List.of("a", "b")) {
      sql("CREATE TABLE lake.spj." + t + " (id BIGINT, v STRING, p STRING) PARTITIONED BY (p) "
          + "TBLPROPERTIES ('bucket' = '4', 'bucket-key' = 'id')");
    }
    sql("CREATE TABLE lake.spj.five (id BIGINT, v STRING, p STRING) PARTITIONED BY (p) "
        + "TBLPROPERTIES ('bucket' = '5', 'bucket-key' = 'id')");
    sql("CREATE TABLE lake.spj.pk (id BIGINT, n INT, p STRING) PARTITIONED BY (p) "
        + "TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '4', 'bucket-key' = 'id')");
    sql("CREATE TABLE lake.spj.ts (t TIMESTAMP, v STRING) TBLPROPERTIES ('bucket' = '4', 'bucket-key' = 't')");
    for (String t : List.of("a", "b", "five")) {
      for (int commit = 0; commit < 2; commit++) {
        sql("INSERT INTO lake.spj." + t + " SELECT id, CONCAT('" + t + "', id), IF(id % 2 = 0, 'x', 'y') "
            + "FROM range(" + (commit * 300) + ", " + (commit * 300 + 400) + ")");
      }
    }
    sql("INSERT INTO lake.spj.pk SELECT id, CAST(id AS INT), IF(id % 2 = 0, 'x', 'y') FROM range(0, 500)");
    sql("INSERT INTO lake.spj.pk SELECT id, -1, IF(id % 2 = 0, 'x', 'y') FROM range(250, 300)");
    sql("INSERT INTO lake.spj.ts SELECT timestamp_seconds(id), 'v' FROM range(0, 20)");
  }

  @AfterEach
  void reset() {
    spark.conf().unset("spark.sql.lagoon.planning.preserve-data-grouping");
    spark.conf().unset("spark.sql.sources.v2.bucketing.enabled");
    spark.conf().unset("spark.sql.autoBroadcastJoinThreshold");
  }

  private static String plan(String query) {
    return sql("EXPLAIN " + query).first().getString(0);
  }

  /** The query's rows with the layout reported and not, and whether the reported plan shuffles. */
  private static boolean shufflesWithLayout(String query) {
    spark.conf().set("spark.sql.autoBroadcastJoinThreshold", "-1");
    // Spark's own switch for storage-partitioned joins (off by default in Spark 3.5).
    spark.conf().set("spark.sql.sources.v2.bucketing.enabled", "true");
    List<String> shuffled = rows(query);
    spark.conf().set("spark.sql.lagoon.planning.preserve-data-grouping", "true");
    assertEquals(shuffled, rows(query), "the same answer with the layout reported: " + query);
    assertFalse(shuffled.isEmpty());
    return plan(query).contains("Exchange");
  }

  @Test
  void joinsOfTablesBucketedAlikeDoNotShuffle() {
    String join = "SELECT a.id, a.v, b.v, a.p FROM lake.spj.a a JOIN lake.spj.b b ON a.id = b.id AND a.p = b.p";
    assertTrue(plan(join).contains("Exchange"), "without the setting the join shuffles");
    assertFalse(shufflesWithLayout(join), plan(join));
    String pkJoin = "SELECT a.id, a.v, k.n FROM lake.spj.a a JOIN lake.spj.pk k ON a.id = k.id AND a.p = k.p";
    assertFalse(shufflesWithLayout(pkJoin), "a primary-key table reports its buckets too: " + plan(pkJoin));
  }

  @Test
  void aggregationsOnTheBucketKeyDoNotShuffle() {
    String agg = "SELECT p, id, count(*) FROM lake.spj.a GROUP BY p, id";
    assertFalse(shufflesWithLayout(agg), plan(agg));
  }

  @Test
  void differentBucketCountsOrAmbiguousKeyTypesStillShuffle() {
    String join = "SELECT a.id, f.v FROM lake.spj.a a JOIN lake.spj.five f ON a.id = f.id AND a.p = f.p";
    assertTrue(shufflesWithLayout(join), plan(join));
    String ts = "SELECT x.t, y.v FROM lake.spj.ts x JOIN lake.spj.ts y ON x.t = y.t";
    assertTrue(shufflesWithLayout(ts), "TIMESTAMP keys are not reported: " + plan(ts));
  }
}
