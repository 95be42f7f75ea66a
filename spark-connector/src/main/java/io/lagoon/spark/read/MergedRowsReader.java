package io.lagoon.spark.read;

import io.lagoon.core.mergetree.CloseableIterator;
import io.lagoon.core.mergetree.ProjectedRow;
import io.lagoon.core.mergetree.engine.KeyValue;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;

/** Reads a {@link MergeInputPartition}: merged records of its sections, projected to the scan's columns. */
final class MergedRowsReader implements PartitionReader<InternalRow> {
  private final CloseableIterator<KeyValue> records;
  /**
   * The scan's columns as a view of the merged value row, no copy: Spark puts a projection to
   * UnsafeRow above every row-based scan anyway, and a record stays valid until the next one.
   */
  private final ProjectedRow output;
  private long rows;

  MergedRowsReader(MergeInputPartition partition, MergeReadContext context) {
    this.records = context.newReader().read(new Path(partition.bucketDir()), partition.sections());
    this.output = new ProjectedRow(context.outputPositions.clone(), context.outputTypes.clone());
  }

  @Override
  public boolean next() {
    if (!records.hasNext()) return false;
    output.replace(records.next().value());
    rows++;
    return true;
  }

  @Override
  public InternalRow get() {
    return output;
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return new CustomTaskMetric[] {ScanMetrics.value(ScanMetrics.MERGED_ROWS, rows)};
  }

  @Override
  public void close() {
    records.close();
  }
}
