package io.lagoon.it.pk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * A scan whose buckets hold both a file no other file overlaps (read raw, vectorized) and
 * overlapping files (merged) stays columnar: merged rows are packed into batches, and the
 * answer is the merged one.
 */
class PkColumnarMixTest extends LagoonSparkTest {

  @Test
  void rawAndMergedSectionsReadColumnarTogether() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.mix");
    String t = "lake.mix.t";
    sql("CREATE TABLE " + t + " (id INT NOT NULL, v STRING, n BIGINT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    sql("INSERT INTO " + t + " SELECT CAST(id AS INT), concat('a', id), id FROM range(0, 5000)");
    sql("INSERT INTO " + t + " SELECT CAST(id AS INT), concat('b', id), id FROM range(10000, 15000)");
    sql("INSERT INTO " + t + " SELECT CAST(id AS INT), concat('c', id), -id FROM range(100, 200)");

    Dataset<Row> q = sql("SELECT id, v, n FROM " + t);
    String plan = q.queryExecution().executedPlan().toString();
    assertTrue(plan.contains("ColumnarToRow"), "columnar scan expected:\n" + plan);
    assertEquals(10000L, q.count());
    assertEquals(list("100,c100,-100", "199,c199,-199", "200,a200,200", "99,a99,99", "10000,b10000,10000"),
        rows("SELECT id, v, n FROM " + t + " WHERE id IN (99, 100, 199, 200, 10000)"));
    Row sums = sql("SELECT sum(n), count(DISTINCT id) FROM " + t).first();
    long expected = 0;
    for (long i = 0; i < 5000; i++) expected += (i >= 100 && i < 200) ? -i : i;
    for (long i = 10000; i < 15000; i++) expected += i;
    assertEquals(expected, sums.getLong(0));
    assertEquals(10000L, sums.getLong(1));
  }
}
