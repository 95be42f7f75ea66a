package io.lagoon.spark.functions;

import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.unsafe.hash.Murmur3_x86_32;

/**
 * For {@code n} buckets, one INT per bucket {@code b} that Spark's hash partitioning into
 * {@code n} partitions sends to partition {@code b}: Spark places a row by
 * {@code pmod(murmur3(value, seed 42), n)}, so small integers are tried in turn until every
 * partition has one. The result depends only on {@code n}, is found in about {@code n ln n} hashes,
 * and is kept per {@code n}.
 */
final class BucketTaskKeys {
  /** The seed of the Murmur3 hash behind Spark's {@code HashPartitioning}. */
  private static final int SPARK_HASH_SEED = 42;
  private static final ConcurrentHashMap<Integer, int[]> KEYS = new ConcurrentHashMap<>();

  private BucketTaskKeys() {}

  static int keyOf(int numBuckets, int bucket) {
    return KEYS.computeIfAbsent(numBuckets, BucketTaskKeys::search)[bucket];
  }

  private static int[] search(int n) {
    int[] keys = new int[n];
    boolean[] found = new boolean[n];
    int missing = n;
    for (int v = 0; missing > 0; v++) {
      int partition = Math.floorMod(Murmur3_x86_32.hashInt(v, SPARK_HASH_SEED), n);
      if (!found[partition]) {
        found[partition] = true;
        keys[partition] = v;
        missing--;
      }
    }
    return keys;
  }
}
