package io.lagoon.spark.read;

import io.lagoon.core.mergetree.CloseableIterator;
import io.lagoon.core.mergetree.engine.KeyValue;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.BoundReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;

/** Reads a {@link MergeInputPartition}: merged records of its sections, projected to the scan's columns. */
final class MergedRowsReader implements PartitionReader<InternalRow> {
  private final MergeReadContext context;
  private final CloseableIterator<KeyValue> records;
  private final UnsafeProjection toUnsafe;
  private InternalRow current;
  private long rows;

  MergedRowsReader(MergeInputPartition partition, MergeReadContext context) {
    this.context = context;
    this.records = context.newReader().read(new Path(partition.bucketDir()), partition.sections());
    // Reads the scan's columns straight out of the merged value row, without boxing.
    java.util.List<Expression> columns = new java.util.ArrayList<>();
    for (int i = 0; i < context.outputPositions.length; i++) {
      columns.add(new BoundReference(context.outputPositions[i], context.outputTypes[i], true));
    }
    this.toUnsafe = UnsafeProjection.create(scala.collection.JavaConverters.asScalaBuffer(columns).toSeq());
  }

  @Override
  public boolean next() {
    if (!records.hasNext()) return false;
    current = toUnsafe.apply(records.next().value());
    rows++;
    return true;
  }

  @Override
  public InternalRow get() {
    return current;
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
