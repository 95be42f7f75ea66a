package io.lagoon.core.dynamicbucket;

import io.lagoon.core.manifest.BucketId;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One task's bucket assignment for a dynamic-bucket table. A key's assigner is its hash modulo
 * the number of assigners; Spark sends all keys of one (partition, assigner) to one task, which
 * loads that part of the partition's index when it first meets it ({@link PartitionBucketIndex}).
 * New buckets are only made by their own assigner, so tasks never hand out the same new bucket,
 * and a key is only ever assigned by one task.
 */
public final class DynamicBucketAssigner {
  private final HashIndexSource source;
  private final int numAssigners;
  private final long targetRowNum;
  private final int maxBuckets;
  private final Map<Key, PartitionBucketIndex> indexes = new LinkedHashMap<>();

  public DynamicBucketAssigner(HashIndexSource source, int numAssigners, long targetRowNum, int maxBuckets) {
    this.source = source;
    this.numAssigners = numAssigners;
    this.targetRowNum = targetRowNum;
    this.maxBuckets = maxBuckets;
  }

  /** The bucket of a key of {@code partition} (serialized) with hash {@code hash}. */
  public int assign(byte[] partition, int hash) throws IOException {
    return index(partition, PartitionBucketIndex.assignerOf(hash, numAssigners)).assign(hash);
  }

  /**
   * Whether this task assigns the new keys of {@code bucket}: it then writes all of the bucket's
   * new keys, while another task may also write existing keys there (when an earlier write used
   * another number of assigners), so only the owner compacts it.
   */
  public boolean owns(byte[] partition, int bucket) {
    return indexes.containsKey(new Key(partition, PartitionBucketIndex.assignerOf(bucket, numAssigners)));
  }

  /** Hashes of the keys this task gave a bucket for the first time, by partition and bucket. */
  public Map<BucketId, int[]> freshHashes() {
    Map<BucketId, int[]> out = new LinkedHashMap<>();
    for (Map.Entry<Key, PartitionBucketIndex> e : indexes.entrySet()) {
      for (Map.Entry<Integer, List<Integer>> b : e.getValue().freshHashes().entrySet()) {
        int[] hashes = new int[b.getValue().size()];
        for (int i = 0; i < hashes.length; i++) hashes[i] = b.getValue().get(i);
        out.put(new BucketId(e.getKey().partition, b.getKey()), hashes);
      }
    }
    return out;
  }

  private PartitionBucketIndex index(byte[] partition, int assigner) throws IOException {
    Key key = new Key(partition, assigner);
    PartitionBucketIndex index = indexes.get(key);
    if (index == null) {
      PartitionBucketIndex loaded = new PartitionBucketIndex(numAssigners, assigner, targetRowNum, maxBuckets);
      source.forEach(partition, loaded::load);
      indexes.put(key, loaded);
      index = loaded;
    }
    return index;
  }

  private static final class Key {
    final byte[] partition;
    final int assigner;

    Key(byte[] partition, int assigner) {
      this.partition = partition;
      this.assigner = assigner;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key && ((Key) o).assigner == assigner && Arrays.equals(((Key) o).partition, partition);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(partition) * 31 + assigner;
    }
  }
}
