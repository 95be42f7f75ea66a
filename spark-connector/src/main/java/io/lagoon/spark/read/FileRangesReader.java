package io.lagoon.spark.read;

import io.lagoon.core.read.DataFileReader;
import java.io.Closeable;
import java.io.IOException;
import java.util.Iterator;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;

/**
 * Reads the file ranges of one input partition in turn. Elements are rows or columnar batches,
 * whichever the file reader was built to return.
 */
final class FileRangesReader<T> implements PartitionReader<T> {
  private final Iterator<LagoonInputPartition.FileRange> ranges;
  private final DataFileReader reader;
  private scala.collection.Iterator<InternalRow> current;
  private T value;

  FileRangesReader(LagoonInputPartition partition, DataFileReader reader) {
    this.ranges = partition.files().iterator();
    this.reader = reader;
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
        current = reader.open(new Path(r.path), r.start, r.length, r.fileSize);
      } catch (RuntimeException e) {
        throw new IOException("Cannot read data file " + r.path + ": " + e.getMessage(), e);
      }
    }
  }

  @Override
  public T get() {
    return value;
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
