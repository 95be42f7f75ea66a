package io.lagoon.spark.read;

import io.lagoon.core.read.StructColumnVector;
import java.io.IOException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.JoinedRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Adds the {@code _row_before} metadata column to what a scan's readers return: the first
 * columns, which are the table's own in its order, once more as one struct. Batches get a struct
 * vector over the same column vectors (nothing is copied); rows get a copy of their values, since
 * a reader may reuse its row.
 */
final class RowBeforeReaderFactory implements PartitionReaderFactory {
  private final PartitionReaderFactory files;
  private final StructType columns;
  private final DataType[] types;

  RowBeforeReaderFactory(PartitionReaderFactory files, StructType columns) {
    this.files = files;
    this.columns = columns;
    this.types = new DataType[columns.fields().length];
    for (int i = 0; i < types.length; i++) types[i] = columns.fields()[i].dataType();
  }

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return files.supportColumnarReads(partition);
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    PartitionReader<InternalRow> in = files.createReader(partition);
    JoinedRow out = new JoinedRow();
    return new PartitionReader<>() {
      @Override public boolean next() throws IOException { return in.next(); }

      @Override
      public InternalRow get() {
        InternalRow row = in.get();
        Object[] values = new Object[types.length];
        for (int i = 0; i < values.length; i++) values[i] = row.isNullAt(i) ? null : row.get(i, types[i]);
        return out.apply(row, new GenericInternalRow(new Object[] {new GenericInternalRow(values).copy()}));
      }

      @Override public void close() throws IOException { in.close(); }
    };
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    PartitionReader<ColumnarBatch> in = files.createColumnarReader(partition);
    return new PartitionReader<>() {
      @Override public boolean next() throws IOException { return in.next(); }

      @Override
      public ColumnarBatch get() {
        ColumnarBatch batch = in.get();
        ColumnVector[] out = new ColumnVector[batch.numCols() + 1];
        ColumnVector[] fields = new ColumnVector[types.length];
        for (int i = 0; i < batch.numCols(); i++) out[i] = batch.column(i);
        System.arraycopy(out, 0, fields, 0, fields.length);
        out[out.length - 1] = StructColumnVector.of(columns, fields);
        return new ColumnarBatch(out, batch.numRows());
      }

      @Override public void close() throws IOException { in.close(); }
    };
  }
}
