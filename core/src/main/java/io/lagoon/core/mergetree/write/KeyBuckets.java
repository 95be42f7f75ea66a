package io.lagoon.core.mergetree.write;

import io.lagoon.core.data.BucketFunction;
import io.lagoon.core.dynamicbucket.AssignerPlan;
import io.lagoon.core.dynamicbucket.CrossPartitionAssigner;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.dynamicbucket.DynamicBucketAssigner;
import io.lagoon.core.manifest.BucketId;
import io.lagoon.core.write.PartitionKey;
import java.io.IOException;
import java.util.Map;

/** How a primary-key write picks the bucket of a key: Paimon's hash over fixed buckets, or dynamic buckets. */
public interface KeyBuckets {
  /** The bucket of a key of {@code partition} whose bucket key hashes to {@code hash}. */
  int bucket(PartitionKey partition, int hash) throws IOException;

  /** What the manifest entries of a partition's new files record as the bucket count ({@code -1}: dynamic). */
  int totalBuckets(PartitionKey partition) throws IOException;

  /** Whether this task may compact {@code bucket} after writing it (no other task compacts it); true for fixed buckets. */
  default boolean compacts(PartitionKey partition, int bucket) {
    return true;
  }

  /** New key hashes to record in the HASH index, by bucket (empty for fixed buckets). */
  default Map<BucketId, int[]> freshHashes() {
    return Map.of();
  }

  /** A task's dynamic buckets as {@code plan} says ({@code source} reads keys of cross-partition tables). */
  static KeyBuckets of(AssignerPlan plan, KeyValueSource source) {
    return plan.crossPartition() ? crossPartition(plan.newCrossPartitionAssigner(source)) : dynamic(plan.newAssigner());
  }

  /** Cross-partition tables: the assigner that says where each key lives; null otherwise. */
  default CrossPartitionAssigner crossPartition() {
    return null;
  }

  /**
   * A cross-partition table: the writer asks {@code assigner} for each record's bucket and where
   * to retract it; a task compacts only the buckets its assigner makes (others may hold
   * retractions from other tasks), and no HASH index is kept (Paimon keeps none in this mode).
   */
  static KeyBuckets crossPartition(CrossPartitionAssigner assigner) {
    return new KeyBuckets() {
      @Override
      public int bucket(PartitionKey partition, int hash) {
        throw new IllegalStateException("a cross-partition write routes each record through its assigner");
      }

      @Override
      public int totalBuckets(PartitionKey partition) {
        return -1;
      }

      @Override
      public boolean compacts(PartitionKey partition, int bucket) {
        return assigner.owns(bucket);
      }

      @Override
      public Map<BucketId, int[]> freshHashes() {
        return Map.of();
      }

      @Override
      public CrossPartitionAssigner crossPartition() {
        return assigner;
      }
    };
  }

  /** {@code 'bucket'='N'}: {@code abs(hash % N)}; every bucket is written by one task. */
  static KeyBuckets fixed(int n) {
    return new KeyBuckets() {
      @Override
      public int bucket(PartitionKey partition, int hash) {
        return BucketFunction.bucket(hash, n);
      }

      @Override
      public int totalBuckets(PartitionKey partition) {
        return n;
      }
    };
  }

  /** {@code 'bucket'='-1'}: the bucket the HASH index or the assigner gives the key. */
  static KeyBuckets dynamic(DynamicBucketAssigner assigner) {
    return new KeyBuckets() {
      @Override
      public int bucket(PartitionKey partition, int hash) throws IOException {
        return assigner.assign(partition.bytes, hash);
      }

      @Override
      public int totalBuckets(PartitionKey partition) {
        return -1;
      }

      @Override
      public boolean compacts(PartitionKey partition, int bucket) {
        return assigner.owns(partition.bytes, bucket);
      }

      @Override
      public Map<BucketId, int[]> freshHashes() {
        return assigner.freshHashes();
      }
    };
  }

  /**
   * {@code 'bucket'='-2'} written by a batch job, as Paimon 1.2+ batch writes do: into fixed
   * buckets, {@code abs(hash % N)} with the partition's own count N (what its bucketed files in the
   * base snapshot record, else {@code postpone.default-bucket-num}); rows are visible at once.
   */
  static KeyBuckets postponed(io.lagoon.core.scan.BaseFiles base, int defaultCount) {
    return new KeyBuckets() {
      private final Map<PartitionKey, Integer> counts = new java.util.HashMap<>();

      @Override
      public int bucket(PartitionKey partition, int hash) throws IOException {
        return BucketFunction.bucket(hash, totalBuckets(partition));
      }

      @Override
      public int totalBuckets(PartitionKey partition) throws IOException {
        Integer n = counts.get(partition);
        if (n == null) {
          int known = base.bucketCount(partition.bytes);
          n = known > 0 ? known : defaultCount;
          counts.put(partition, n);
        }
        return n;
      }
    };
  }
}
