package io.lagoon.core.manifest;

import java.io.Serializable;
import java.util.Arrays;

/** One bucket of one partition (the serialized partition row and the bucket number), as a map key. */
public final class BucketId implements Serializable {
  /** Size of a serialized row without fields (an unpartitioned table's partition). */
  private static final int EMPTY_ROW_BYTES = 12;
  public final byte[] partition;
  public final int bucket;

  public BucketId(byte[] partition, int bucket) {
    this.partition = partition;
    this.bucket = bucket;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof BucketId)) return false;
    BucketId b = (BucketId) o;
    return bucket == b.bucket && Arrays.equals(partition, b.partition);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(partition) * 31 + bucket;
  }

  /** "bucket 3", or "bucket 3 of partition [..]" for a partitioned table. */
  @Override
  public String toString() {
    return "bucket " + bucket + (partition.length <= EMPTY_ROW_BYTES ? "" : " of partition " + Arrays.toString(partition));
  }
}
