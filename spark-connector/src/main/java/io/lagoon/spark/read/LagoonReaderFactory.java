package io.lagoon.spark.read;

import io.lagoon.core.deletionvectors.DeletionVectorIndex;
import io.lagoon.core.fs.FileIO;
import org.apache.hadoop.fs.Path;
import io.lagoon.core.read.DataFileReader;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Ships the readers to executors and opens one per input partition: file ranges through the data
 * file reader (columnar when it was built for batches), merge partitions through the merge
 * context. Spark refuses a scan that mixes columnar and row partitions, so when the file reader
 * returns batches, merged rows are packed into batches too (see {@link LagoonScan#createReaderFactory}).
 */
public class LagoonReaderFactory implements PartitionReaderFactory {
  private final DataFileReader reader;
  private final MergeReadContext merge;
  /** The table's file system and folder, to read deletion vectors; null when the scan has none. */
  private final FileIO io;
  private final String tableDir;
  private final String tableName;
  /** Checks each file before it is read (a copy-on-write rewrite); null for none. */
  private final FileMatchProbe probe;

  LagoonReaderFactory(DataFileReader reader, MergeReadContext merge, FileIO io, String tableDir, String tableName,
                      FileMatchProbe probe) {
    this.probe = probe;
    this.reader = reader;
    this.merge = merge;
    this.io = io;
    this.tableDir = tableDir;
    this.tableName = tableName;
  }

  private DeletionVectorIndex.Loader vectors() {
    return io == null ? null : new DeletionVectorIndex.Loader(io, new Path(tableDir), tableName);
  }

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return reader.batch();
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    if (partition instanceof MergeInputPartition) return new MergedRowsReader((MergeInputPartition) partition, merge);
    return new FileRangesReader<>((LagoonInputPartition) partition, reader, vectors(), probe);
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    if (partition instanceof MergeInputPartition) return new MergedBatchReader((MergeInputPartition) partition, merge);
    return new FileRangesReader<>((LagoonInputPartition) partition, reader, vectors(), probe);
  }
}
