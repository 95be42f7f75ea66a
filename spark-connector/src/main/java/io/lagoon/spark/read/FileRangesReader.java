package io.lagoon.spark.read;

import io.lagoon.core.deletionvectors.DeletionVector;
import io.lagoon.core.deletionvectors.DeletionVectorIndex;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import io.lagoon.core.read.DataFileReader;
import java.io.Closeable;
import java.io.IOException;
import java.util.Iterator;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;

/**
 * Reads the file ranges of one input partition in turn, leaving out rows their files' deletion
 * vectors mark, and rows outside a file's row selection (what its bitmap or bit-sliced indexes
 * admit). Elements are rows or columnar batches, whichever the file reader was built to return.
 */
final class FileRangesReader<T> implements PartitionReader<T> {
  private final Iterator<LagoonInputPartition.FileRange> ranges;
  private final DataFileReader reader;
  /** Reads deletion vectors; null when the scan has none. */
  private final DeletionVectorIndex.Loader vectors;
  private scala.collection.Iterator<InternalRow> current;
  private T value;
  private long rowsDeleted;

  FileRangesReader(LagoonInputPartition partition, DataFileReader reader, DeletionVectorIndex.Loader vectors) {
    this.ranges = partition.files().iterator();
    this.reader = reader;
    this.vectors = vectors;
  }

  @Override
  @SuppressWarnings("unchecked")
  public boolean next() throws IOException {
    while (true) {
      if (current != null && current.hasNext()) {
        value = (T) (Object) current.next();
        return true;
      }
      closeCurrent();
      if (!ranges.hasNext()) return false;
      LagoonInputPartition.FileRange r = ranges.next();
      try {
        DeletionVector deleted = r.deletionVector == null ? null : vectors.load(r.deletionVector);
        if (r.selection == null) {
          current = reader.open(new Path(r.path), r.start, r.length, r.fileSize, deleted, n -> rowsDeleted += n, r.schemaId);
        } else {
          // Rows the file's indexes rule out are left out as deleted ones (the driver's metric
          // counts them); the vector's own deletions in such a file are not counted apart.
          current = reader.open(new Path(r.path), r.start, r.length, r.fileSize,
              DeletionVector.outside(r.selection, r.rowCount, deleted), n -> { }, r.schemaId);
        }
      } catch (RuntimeException e) {
        throw new IOException("Cannot read data file " + r.path + ": " + e.getMessage(), e);
      }
    }
  }

  @Override
  public T get() {
    return value;
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return new CustomTaskMetric[] {ScanMetrics.value(ScanMetrics.ROWS_DELETED_BY_VECTORS, rowsDeleted)};
  }

  private void closeCurrent() throws IOException {
    if (current instanceof Closeable) ((Closeable) current).close();
    current = null;
  }

  @Override
  public void close() throws IOException {
    closeCurrent();
  }
}
