package io.lagoon.spark.read;

import io.lagoon.core.deletionvectors.DeletionVectorIndex;
import java.io.Serializable;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.HasPartitionKey;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * A unit of work for one task: byte ranges of data files, read one after another. When the scan
 * reports its layout ({@link StoragePartitioning}), all of them lie in one (partition, bucket),
 * its key.
 */
public final class LagoonInputPartition implements InputPartition, HasPartitionKey {
  /** A byte range of one data file. */
  public static final class FileRange implements Serializable {
    public final String path;
    public final long start;
    public final long length;
    public final long fileSize;
    /** Where the file's deletion vector is; null when no row of it is deleted. */
    public final DeletionVectorIndex.Ref deletionVector;
    /** The rows of the file its indexes admit (the others are left out); null: every row. */
    public final org.roaringbitmap.RoaringBitmap selection;
    /** The file's row count (what a selection's complement spans). */
    public final long rowCount;
    /** The schema the file was written with (its columns may differ from the scan's); -1: the scan's. */
    public final long schemaId;

    public FileRange(String path, long start, long length, long fileSize) {
      this(path, start, length, fileSize, null);
    }

    public FileRange(String path, long start, long length, long fileSize, DeletionVectorIndex.Ref deletionVector) {
      this(path, start, length, fileSize, deletionVector, null, 0, -1);
    }

    public FileRange(String path, long start, long length, long fileSize, DeletionVectorIndex.Ref deletionVector,
                     org.roaringbitmap.RoaringBitmap selection, long rowCount, long schemaId) {
      this.path = path;
      this.start = start;
      this.length = length;
      this.fileSize = fileSize;
      this.deletionVector = deletionVector;
      this.selection = selection;
      this.rowCount = rowCount;
      this.schemaId = schemaId;
    }
  }

  private final List<FileRange> files;
  private final InternalRow key;

  public LagoonInputPartition(List<FileRange> files) {
    this(files, null);
  }

  private LagoonInputPartition(List<FileRange> files, InternalRow key) {
    this.files = List.copyOf(files);
    this.key = key;
  }

  /** The same ranges, keyed by their (partition, bucket). */
  LagoonInputPartition withKey(InternalRow key) {
    return new LagoonInputPartition(files, key);
  }

  /** Only asked for when the scan reports its layout. */
  @Override
  public InternalRow partitionKey() {
    return key;
  }

  public List<FileRange> files() {
    return files;
  }
}
