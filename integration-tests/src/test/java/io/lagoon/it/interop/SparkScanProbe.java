package io.lagoon.it.interop;

import java.util.ArrayList;
import java.util.List;

import io.lagoon.it.oracle.SparkRows;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.execution.metric.SQLMetric;

import scala.collection.JavaConverters;

/**
 * Runs filtered queries on Lagoon tables, reads the scan metrics of their scans and compares their
 * rows with the same condition evaluated on a local copy of every row. Spark only (no Paimon
 * class), so the Paimon 0.9 test JVM can use it too.
 */
public final class SparkScanProbe {

    private SparkScanProbe() {}

    /** The result of one filtered query and the scan metrics of the (single) V2 scan it ran. */
    public record Result(List<String> rows, long filesScanned, long filesSkipped) {}

    /**
     * {@code SELECT * FROM table WHERE condition}, rendered and sorted, with the
     * {@code lagoonFilesScanned}/{@code lagoonFilesSkipped} metrics of its scan (-1 where the scan
     * reports none, e.g. a Paimon table).
     */
    public static Result filtered(SparkSession spark, String table, String condition) {
        Dataset<Row> df = spark.sql("SELECT * FROM " + table + " WHERE " + condition);
        List<String> rows = SparkRows.renderAll(df);
        List<BatchScanExec> scans = new ArrayList<>();
        collectScans(df.queryExecution().executedPlan(), scans);
        long scanned = -1;
        long skipped = -1;
        for (BatchScanExec scan : scans) {
            scanned = Math.max(scanned, metric(scan, "lagoonFilesScanned"));
            skipped = Math.max(skipped, metric(scan, "lagoonFilesSkipped"));
        }
        return new Result(rows, scanned, skipped);
    }

    /**
     * Runs every filter on {@code table} (a Lagoon table) and records in {@code diff} each one whose
     * rows differ from the unpruned evaluation, whose scan reports no metrics, or (when
     * {@code selective}) whose scan did not skip a single data file.
     */
    public static void checkFilters(SparkSession spark, String table, List<InteropData.SqlFilter> filters,
                                    RowDiff diff) {
        Result all = filtered(spark, table, "id IS NOT NULL OR id IS NULL");
        long total = all.filesScanned();
        if (total <= 0) {
            diff.problem(table + ": the unfiltered scan reports " + total + " files scanned");
        }
        // Expected rows: the same condition on a local copy of every row (no source, no pruning).
        Dataset<Row> full = spark.table(table);
        String view = "unpruned_" + Integer.toHexString(table.hashCode() & 0x7fffffff);
        spark.createDataFrame(full.collectAsList(), full.schema()).createOrReplaceTempView(view);
        for (InteropData.SqlFilter f : filters) {
            Result r;
            try {
                r = filtered(spark, table, f.condition());
            } catch (Exception e) {
                diff.problem("WHERE " + f + ": " + e);
                continue;
            }
            diff.check("WHERE " + f, SparkRows.renderAll(spark.sql("SELECT * FROM " + view + " WHERE "
                    + f.condition())), r.rows());
            if (r.filesScanned() < 0) {
                diff.problem("WHERE " + f + ": no scan metrics");
            } else if (f.selective() && r.filesScanned() >= total) {
                diff.problem("WHERE " + f + ": scanned all " + total + " files, skipped " + r.filesSkipped()
                        + " (partition values or stats did not prune)");
            }
        }
    }

    private static long metric(BatchScanExec scan, String name) {
        scala.Option<SQLMetric> m = scan.metrics().get(name);
        return m.isDefined() ? m.get().value() : -1;
    }

    private static void collectScans(SparkPlan plan, List<BatchScanExec> out) {
        if (plan instanceof BatchScanExec) {
            out.add((BatchScanExec) plan);
        } else if (plan instanceof AdaptiveSparkPlanExec) {
            collectScans(((AdaptiveSparkPlanExec) plan).executedPlan(), out);
        } else if (plan instanceof QueryStageExec) {
            collectScans(((QueryStageExec) plan).plan(), out);
        }
        for (SparkPlan child : JavaConverters.seqAsJavaListConverter(plan.children()).asJava()) {
            collectScans(child, out);
        }
    }
}
