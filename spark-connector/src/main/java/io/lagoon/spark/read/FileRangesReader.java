package io.lagoon.spark.read;

import io.lagoon.core.deletionvectors.DeletionVector;
import io.lagoon.core.deletionvectors.DeletionVectorIndex;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import io.lagoon.core.read.DataFileReader;
import io.lagoon.core.read.RowGroupRanges;
import java.io.Closeable;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
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
  /** Row groups not read: every row of them was left out by a row selection (see RowGroups). */
  private long rowGroupsSkipped;

  /** Checks each file before it is read; null for none. */
  private final FileMatchProbe probe;

  FileRangesReader(LagoonInputPartition partition, DataFileReader reader, DeletionVectorIndex.Loader vectors,
                   FileMatchProbe probe) {
    this.probe = probe;
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
        // Every range of a file decides on the whole file, so a split file is kept or read whole.
        if (probe != null && r.deletionVector == null && r.selection == null
            && !probe.matches(r.path, r.fileSize, r.schemaId)) {
          probe.keep(r.path);
          continue;
        }
        DeletionVector deleted = r.deletionVector == null ? null : vectors.load(r.deletionVector);
        if (r.selection == null) {
          current = reader.open(new Path(r.path), r.start, r.length, r.fileSize, deleted, n -> rowsDeleted += n, r.schemaId);
        } else {
          // Rows the file's indexes rule out are left out as deleted ones (the driver's metric
          // counts them); the vector's own deletions in such a file are not counted apart. Row
          // groups holding none of the selected rows are not read at all.
          DeletionVector outside = DeletionVector.outside(r.selection, r.rowCount, deleted);
          Path path = new Path(r.path);
          RowGroupRanges.Plan groups = reader.rowGroupsToRead(path, r.start, r.length, outside);
          if (groups == null) {
            current = reader.openSelected(path, r.start, r.length, r.fileSize, outside, r.schemaId);
          } else {
            rowGroupsSkipped += groups.skipped();
            @SuppressWarnings({"unchecked", "rawtypes"})
            scala.collection.Iterator<InternalRow> parts = (scala.collection.Iterator) new RowGroups(path, r, groups.read(), outside);
            current = parts;
          }
        }
      } catch (RuntimeException e) {
        throw new IOException("Cannot read data file " + r.path + ": " + e.getMessage(), e);
      }
    }
  }

  /** The kept row groups of a range, one after another (each a range of its own for the reader). */
  private final class RowGroups extends scala.collection.AbstractIterator<Object> implements Closeable {
    private final Path path;
    private final LagoonInputPartition.FileRange range;
    private final Iterator<long[]> groups;
    private final DeletionVector outside;
    /** Rows or batches, as the reader returns them. */
    private scala.collection.Iterator<?> part;

    RowGroups(Path path, LagoonInputPartition.FileRange range, List<long[]> groups, DeletionVector outside) {
      this.path = path;
      this.range = range;
      this.groups = groups.iterator();
      this.outside = outside;
    }

    @Override
    public boolean hasNext() {
      while (part == null || !part.hasNext()) {
        try {
          close();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
        if (!groups.hasNext()) return false;
        long[] g = groups.next();
        part = reader.open(path, g[0], g[1], range.fileSize, outside, n -> { }, range.schemaId);
      }
      return true;
    }

    @Override
    public Object next() {
      if (!hasNext()) throw new java.util.NoSuchElementException();
      return part.next();
    }

    @Override
    public void close() throws IOException {
      if (part instanceof Closeable) ((Closeable) part).close();
      part = null;
    }
  }

  @Override
  public T get() {
    return value;
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return new CustomTaskMetric[] {ScanMetrics.value(ScanMetrics.ROWS_DELETED_BY_VECTORS, rowsDeleted),
        ScanMetrics.value(ScanMetrics.ROW_GROUPS_SKIPPED_BY_INDEX, rowGroupsSkipped)};
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
