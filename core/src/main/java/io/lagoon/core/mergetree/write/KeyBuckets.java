package io.lagoon.core.mergetree.write;

import io.lagoon.core.data.BucketFunction;
import io.lagoon.core.dynamicbucket.DynamicBucketAssigner;
import io.lagoon.core.manifest.BucketId;
import io.lagoon.core.write.PartitionKey;
import java.io.IOException;
import java.util.Map;

/** How a primary-key write picks the bucket of a key: Paimon's hash over fixed buckets, or dynamic buckets. */
public interface KeyBuckets {
  /** The bucket of a key of {@code partition} whose bucket key hashes to {@code hash}. */
  int bucket(PartitionKey partition, int hash) throws IOException;

  /** What the manifest entries of new files record as the bucket count ({@code -1}: dynamic). */
  int totalBuckets();

  /** Whether this task may compact {@code bucket} after writing it (no other task compacts it). */
  boolean compacts(PartitionKey partition, int bucket);

  /** New key hashes to record in the HASH index, by bucket (empty for fixed buckets). */
  Map<BucketId, int[]> freshHashes();

  /** {@code 'bucket'='N'}: {@code abs(hash % N)}; every bucket is written by one task. */
  static KeyBuckets fixed(int n) {
    return new KeyBuckets() {
      @Override
      public int bucket(PartitionKey partition, int hash) {
        return BucketFunction.bucket(hash, n);
      }

      @Override
      public int totalBuckets() {
        return n;
      }

      @Override
      public boolean compacts(PartitionKey partition, int bucket) {
        return true;
      }

      @Override
      public Map<BucketId, int[]> freshHashes() {
        return Map.of();
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
      public int totalBuckets() {
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
}
