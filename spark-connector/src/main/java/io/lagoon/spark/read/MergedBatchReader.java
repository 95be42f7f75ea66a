package io.lagoon.spark.read;

import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.RowToColumnConverter;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The merged rows of a {@link MergeInputPartition} as columnar batches, so a scan that also has
 * raw (never merged) files can read those with the vectorized reader: Spark wants one mode for
 * every partition of a scan.
 */
final class MergedBatchReader implements PartitionReader<ColumnarBatch> {
  private static final int BATCH_ROWS = 4096;

  private final MergedRowsReader rows;
  private final RowToColumnConverter converter;
  private final WritableColumnVector[] vectors;
  private final ColumnarBatch batch;

  MergedBatchReader(MergeInputPartition partition, MergeReadContext context) {
    this.rows = new MergedRowsReader(partition, context);
    StructType schema = context.required;
    this.converter = new RowToColumnConverter(schema);
    this.vectors = OnHeapColumnVector.allocateColumns(BATCH_ROWS, schema);
    this.batch = new ColumnarBatch(vectors.clone());
  }

  @Override
  public boolean next() {
    for (WritableColumnVector v : vectors) v.reset();
    int n = 0;
    while (n < BATCH_ROWS && rows.next()) {
      converter.convert(rows.get(), vectors);
      n++;
    }
    batch.setNumRows(n);
    return n > 0;
  }

  @Override
  public ColumnarBatch get() {
    return batch;
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return rows.currentMetricsValues();
  }

  @Override
  public void close() {
    rows.close();
    batch.close();
  }
}
