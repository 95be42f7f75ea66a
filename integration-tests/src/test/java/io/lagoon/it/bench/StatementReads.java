package io.lagoon.it.bench;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.ui.SQLAppStatusStore;
import org.apache.spark.sql.execution.ui.SQLExecutionUIData;
import org.apache.spark.sql.execution.ui.SQLPlanMetric;
import org.apache.spark.sql.execution.ui.SparkPlanGraphNode;
import scala.collection.JavaConverters;

/**
 * What one statement read, from what Spark itself records: the rows its tasks read from data
 * sources (task input metrics, the same count for every connector) and the data files its scans
 * planned, from each connector's own scan metric in the SQL status store (Lagoon's "data files
 * scanned", Paimon's "number of resulted table files"), summed over every query execution the
 * statement ran.
 */
public final class StatementReads {
  /** Scan metrics, by their description in the Spark UI, that count the data files a scan reads. */
  private static final Set<String> FILE_METRICS = Set.of("data files scanned", "number of resulted table files");

  private final SparkSession spark;
  private final AtomicLong records = new AtomicLong();
  private long recordsAtStart;
  private long lastExecutionAtStart;

  /** Rows read and files planned by one statement. */
  public static final class Reads {
    public final long rows;
    public final long files;

    Reads(long rows, long files) {
      this.rows = rows;
      this.files = files;
    }
  }

  public StatementReads(SparkSession spark) {
    this.spark = spark;
    spark.sparkContext().addSparkListener(new SparkListener() {
      @Override
      public void onTaskEnd(SparkListenerTaskEnd end) {
        if (end.taskMetrics() != null) records.addAndGet(end.taskMetrics().inputMetrics().recordsRead());
      }
    });
  }

  public void start() {
    drain();
    recordsAtStart = records.get();
    lastExecutionAtStart = lastExecution();
  }

  public Reads stop() {
    drain();
    SQLAppStatusStore store = spark.sharedState().statusStore();
    long files = 0;
    for (SQLExecutionUIData e : executions(store)) {
      if (e.executionId() <= lastExecutionAtStart) continue;
      Map<Object, String> values = JavaConverters.mapAsJavaMap(store.executionMetrics(e.executionId()));
      for (SparkPlanGraphNode node : JavaConverters.seqAsJavaList(store.planGraph(e.executionId()).allNodes())) {
        for (SQLPlanMetric m : JavaConverters.seqAsJavaList(node.metrics())) {
          String v = values.get(m.accumulatorId());
          if (FILE_METRICS.contains(m.name()) && v != null) files += Long.parseLong(v.replace(",", "").trim());
        }
      }
    }
    return new Reads(records.get() - recordsAtStart, files);
  }

  private long lastExecution() {
    long last = -1;
    for (SQLExecutionUIData e : executions(spark.sharedState().statusStore())) last = Math.max(last, e.executionId());
    return last;
  }

  private static List<SQLExecutionUIData> executions(SQLAppStatusStore store) {
    return JavaConverters.seqAsJavaList(store.executionsList());
  }

  /** Listener events (task ends, metric updates) are delivered asynchronously. */
  private void drain() {
    try {
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("Spark's listener events did not drain", e);
    }
  }
}
