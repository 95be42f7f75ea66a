package io.lagoon.spark.read;

import io.lagoon.core.read.DataFileReader;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/** Ships the file reader to executors and opens readers for input partitions, columnar when possible. */
public class LagoonReaderFactory implements PartitionReaderFactory {
  private final DataFileReader reader;

  LagoonReaderFactory(DataFileReader reader) {
    this.reader = reader;
  }

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return reader.batch();
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    return new FileRangesReader<>((LagoonInputPartition) partition, reader);
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    return new FileRangesReader<>((LagoonInputPartition) partition, reader);
  }
}
