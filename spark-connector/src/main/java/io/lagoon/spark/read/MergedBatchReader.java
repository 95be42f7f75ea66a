package io.lagoon.spark.read;

import io.lagoon.core.mergetree.read.DeduplicateBatchMerge;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.RowToColumnConverter;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The merged rows of a {@link MergeInputPartition} as columnar batches: the files' own batches
 * seen through their merged rows when {@link DeduplicateBatchMerge} applies, else merged rows
 * converted into vectors.
 * Spark wants one mode for every partition of a scan, and a columnar scan keeps raw files on the
 * vectorized reader.
 */
final class MergedBatchReader implements PartitionReader<ColumnarBatch> {
  private static final int BATCH_ROWS = 4096;

  /** The columnar merge when it applies, else null and merged rows are converted. */
  private final DeduplicateBatchMerge columnar;
  private final MergedRowsReader rows;
  private final RowToColumnConverter converter;
  /** The row path's vectors and batch (null on the columnar path). */
  private final WritableColumnVector[] vectors;
  private final ColumnarBatch converted;
  private ColumnarBatch current;
  private long merged;

  MergedBatchReader(MergeInputPartition partition, MergeReadContext context) {
    this.columnar = context.newBatchMerge(new Path(partition.bucketDir()), partition.sections());
    StructType schema = context.required;
    if (columnar == null) {
      this.rows = new MergedRowsReader(partition, context);
      this.converter = new RowToColumnConverter(schema);
      this.vectors = OnHeapColumnVector.allocateColumns(BATCH_ROWS, schema);
      this.converted = new ColumnarBatch(vectors.clone());
    } else {
      this.rows = null;
      this.converter = null;
      this.vectors = null;
      this.converted = null;
    }
  }

  @Override
  public boolean next() {
    if (columnar != null) {
      current = columnar.next();
      if (current == null) return false;
      merged += current.numRows();
      return true;
    }
    for (WritableColumnVector v : vectors) v.reset();
    int n = 0;
    while (n < BATCH_ROWS && rows.next()) {
      converter.convert(rows.get(), vectors);
      n++;
    }
    converted.setNumRows(n);
    current = converted;
    return n > 0;
  }

  @Override
  public ColumnarBatch get() {
    return current;
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    if (rows != null) return rows.currentMetricsValues();
    return new CustomTaskMetric[] {ScanMetrics.value(ScanMetrics.MERGED_ROWS, merged),
        ScanMetrics.value(ScanMetrics.COLUMNAR_MERGED_ROWS, merged)};
  }

  @Override
  public void close() {
    if (columnar != null) columnar.close();
    if (rows != null) rows.close();
    if (converted != null) converted.close();
  }
}
