package io.lagoon.spark.read;

import io.lagoon.core.mergetree.CloseableIterator;
import io.lagoon.core.mergetree.engine.KeyValue;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;

/** Reads a {@link MergeInputPartition}: merged records of its sections, projected to the scan's columns. */
final class MergedRowsReader implements PartitionReader<InternalRow> {
  private final MergeReadContext context;
  private final CloseableIterator<KeyValue> records;
  private final GenericInternalRow projected;
  private final UnsafeProjection toUnsafe;
  private InternalRow current;
  private long rows;

  MergedRowsReader(MergeInputPartition partition, MergeReadContext context) {
    this.context = context;
    this.records = context.newReader().read(new Path(partition.bucketDir()), partition.sections());
    this.projected = new GenericInternalRow(context.outputPositions.length);
    this.toUnsafe = UnsafeProjection.create(context.required);
  }

  @Override
  public boolean next() {
    if (!records.hasNext()) return false;
    InternalRow value = records.next().value();
    for (int i = 0; i < context.outputPositions.length; i++) {
      int p = context.outputPositions[i];
      projected.update(i, value.isNullAt(p) ? null : value.get(p, context.outputTypes[i]));
    }
    current = toUnsafe.apply(projected);
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
