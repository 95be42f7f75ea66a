package io.lagoon.spark.read;

import io.lagoon.core.read.DataFileReader;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Ships the readers to executors and opens one per input partition: file ranges through the data
 * file reader (columnar when it was built for batches), merge partitions row by row through the
 * merge context. Spark refuses a scan that mixes columnar and row partitions, so a scan with any
 * merge partition builds its file reader for rows (see {@link LagoonScan#createReaderFactory}).
 */
public class LagoonReaderFactory implements PartitionReaderFactory {
  private final DataFileReader reader;
  private final MergeReadContext merge;

  LagoonReaderFactory(DataFileReader reader, MergeReadContext merge) {
    this.reader = reader;
    this.merge = merge;
  }

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return partition instanceof LagoonInputPartition && reader.batch();
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    if (partition instanceof MergeInputPartition) return new MergedRowsReader((MergeInputPartition) partition, merge);
    return new FileRangesReader<>((LagoonInputPartition) partition, reader);
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    return new FileRangesReader<>((LagoonInputPartition) partition, reader);
  }
}
