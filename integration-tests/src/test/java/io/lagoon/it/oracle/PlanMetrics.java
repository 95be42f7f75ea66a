package io.lagoon.it.oracle;

import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.execution.metric.SQLMetric;
import scala.collection.JavaConverters;

/** The metrics of the scans of an executed plan, by name, as the Spark UI shows them. */
public final class PlanMetrics {
  private PlanMetrics() {}

  public static Map<String, Long> ofScans(SparkPlan plan) {
    Map<String, Long> out = new HashMap<>();
    walk(plan, out);
    return out;
  }

  /** Visits every node, entering adaptive plans and query stages, which hide their children. */
  private static void walk(SparkPlan p, Map<String, Long> out) {
    if (p instanceof AdaptiveSparkPlanExec) {
      walk(((AdaptiveSparkPlanExec) p).executedPlan(), out);
      return;
    }
    if (p instanceof QueryStageExec) {
      walk(((QueryStageExec) p).plan(), out);
      return;
    }
    if (p instanceof BatchScanExec) {
      for (Map.Entry<String, SQLMetric> e : JavaConverters.mapAsJavaMap(p.metrics()).entrySet()) {
        out.put(e.getKey(), e.getValue().value());
      }
    }
    for (SparkPlan c : JavaConverters.seqAsJavaList(p.children())) walk(c, out);
  }
}
