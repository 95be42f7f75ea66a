package io.lagoon.core.manifest;

import io.lagoon.core.deletionvectors.DeletionVectorRange;
import java.io.Serializable;
import java.util.List;

/**
 * One row of a snapshot's index manifest: an index file of a bucket ({@code index/<fileName>}),
 * its type ({@code DELETION_VECTORS}, or {@code HASH} for dynamic buckets) and, for deletion
 * vectors, where each data file's vector sits in it.
 */
public final class IndexManifestEntry implements Serializable {
  public static final String DELETION_VECTORS = "DELETION_VECTORS";

  public final FileKind kind;
  public final byte[] partition;
  public final int bucket;
  public final String indexType;
  public final String fileName;
  public final long fileSize;
  public final long rowCount;
  /** Empty unless {@link #indexType} is {@link #DELETION_VECTORS}. */
  public final List<DeletionVectorRange> ranges;

  public IndexManifestEntry(FileKind kind, byte[] partition, int bucket, String indexType, String fileName,
                            long fileSize, long rowCount, List<DeletionVectorRange> ranges) {
    this.kind = kind;
    this.partition = partition;
    this.bucket = bucket;
    this.indexType = indexType;
    this.fileName = fileName;
    this.fileSize = fileSize;
    this.rowCount = rowCount;
    this.ranges = List.copyOf(ranges);
  }

  public boolean isDeletionVectors() {
    return DELETION_VECTORS.equals(indexType);
  }

  public BucketId bucketId() {
    return new BucketId(partition, bucket);
  }
}
