package io.lagoon.it.pk;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.execution.metric.SQLMetric;
import scala.collection.JavaConverters;

/** Reads a Lagoon scan metric from a query that has run (Spark only). */
final class PkReadScans {
    private PkReadScans() {}

    /** The largest value of the metric over the query's V2 scans, -1 when none reports it. */
    static long metric(Dataset<Row> executed, String name) {
        List<BatchScanExec> scans = new ArrayList<>();
        collect(executed.queryExecution().executedPlan(), scans);
        long out = -1;
        for (BatchScanExec s : scans) {
            scala.Option<SQLMetric> m = s.metrics().get(name);
            if (m.isDefined()) out = Math.max(out, m.get().value());
        }
        return out;
    }

    private static void collect(SparkPlan plan, List<BatchScanExec> out) {
        if (plan instanceof BatchScanExec) {
            out.add((BatchScanExec) plan);
        } else if (plan instanceof AdaptiveSparkPlanExec) {
            collect(((AdaptiveSparkPlanExec) plan).executedPlan(), out);
        } else if (plan instanceof QueryStageExec) {
            collect(((QueryStageExec) plan).plan(), out);
        }
        for (SparkPlan child : JavaConverters.seqAsJavaListConverter(plan.children()).asJava()) {
            collect(child, out);
        }
    }
}
