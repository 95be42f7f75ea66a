package io.lagoon.core.dynamicbucket;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which bucket each key of one partition goes to, as one bucket assigner sees it (Paimon's rules
 * for dynamic buckets): a key whose hash the partition's HASH index already holds stays in that
 * bucket; a new key goes to the lowest-numbered bucket of this assigner that holds fewer than
 * {@code dynamic-bucket.target-row-num} keys, else to a new bucket, the lowest free number this
 * assigner owns (bucket {@code b} belongs to assigner {@code b % n}), and once
 * {@code dynamic-bucket.max-buckets} are taken, to one of the assigner's buckets picked by the
 * hash. Keys are known by their hash only: two keys of one hash share a bucket, which is how
 * Paimon keeps a key from ever being live in two buckets.
 */
public final class PartitionBucketIndex {
  /** Paimon keeps bucket numbers of dynamic buckets in 16 bits. */
  public static final int MAX_BUCKETS = Short.MAX_VALUE;

  private final int numAssigners;
  private final int assigner;
  private final long targetRowNum;
  private final int maxBuckets;
  /** Hash to bucket, for the hashes this assigner assigns. */
  private final HashToBucket buckets = new HashToBucket();
  /** Keys held by each bucket this assigner owns, in bucket order. */
  private final TreeMap<Integer, Long> sizes = new TreeMap<>();
  /** Hashes this index assigned to a bucket for the first time, by bucket. */
  private final Map<Integer, List<Integer>> fresh = new TreeMap<>();

  /**
   * @param numAssigners how many assigners share the partition's keys (by {@code hash % n})
   * @param assigner this one's number, in {@code [0, numAssigners)}
   * @param maxBuckets -1 for no bound
   */
  public PartitionBucketIndex(int numAssigners, int assigner, long targetRowNum, int maxBuckets) {
    if (numAssigners <= 0 || assigner < 0 || assigner >= numAssigners) {
      throw new IllegalArgumentException("Assigner " + assigner + " of " + numAssigners);
    }
    this.numAssigners = numAssigners;
    this.assigner = assigner;
    this.targetRowNum = targetRowNum;
    this.maxBuckets = maxBuckets == -1 ? MAX_BUCKETS : Math.min(maxBuckets, MAX_BUCKETS);
  }

  /** The assigner of a key hash or a bucket number among {@code n}. */
  public static int assignerOf(int hashOrBucket, int n) {
    return Math.abs(hashOrBucket % n);
  }

  /** Loads one hash of the partition's index, found in {@code bucket}. */
  public void load(int bucket, int hash) {
    if (assignerOf(hash, numAssigners) == assigner) buckets.put(hash, bucket);
    if (assignerOf(bucket, numAssigners) == assigner) sizes.merge(bucket, 1L, Long::sum);
  }

  /** Counts {@code keys} keys of {@code bucket} toward its size (cross-partition tables: keys known by value, not hash). */
  public void countKeys(int bucket, long keys) {
    if (assignerOf(bucket, numAssigners) == assigner) sizes.merge(bucket, keys, Long::sum);
  }

  /** The bucket of the key with this hash, choosing one for a new key. */
  public int assign(int hash) {
    if (assignerOf(hash, numAssigners) != assigner) {
      throw new IllegalArgumentException("Key hash " + hash + " belongs to assigner " + assignerOf(hash, numAssigners)
          + ", not " + assigner + " of " + numAssigners);
    }
    int known = buckets.get(hash);
    if (known >= 0) return known;
    int bucket = choose(hash);
    buckets.put(hash, bucket);
    sizes.merge(bucket, 1L, Long::sum);
    fresh.computeIfAbsent(bucket, b -> new ArrayList<>()).add(hash);
    return bucket;
  }

  private int choose(int hash) {
    for (Map.Entry<Integer, Long> b : sizes.entrySet()) {
      if (b.getValue() < targetRowNum) return b.getKey();
    }
    for (int b = assigner; b < maxBuckets; b += numAssigners) {
      if (!sizes.containsKey(b)) return b;
    }
    if (sizes.isEmpty()) {
      throw new IllegalStateException("Dynamic bucket assigner " + assigner + " of " + numAssigners
          + " owns no bucket below 'dynamic-bucket.max-buckets'=" + maxBuckets
          + "; lower the number of assigners ('dynamic-bucket.assigner-parallelism') or raise the bound");
    }
    // Every bucket is full and no new one may be made: one of the assigner's, picked by the hash.
    List<Integer> owned = new ArrayList<>(sizes.keySet());
    return owned.get(Math.abs(hash % owned.size()));
  }

  /** Whether bucket {@code b} is one this assigner makes and fills. */
  public boolean owns(int bucket) {
    return assignerOf(bucket, numAssigners) == assigner;
  }

  /** Hashes of new keys, by bucket, in the order they were assigned. */
  public Map<Integer, List<Integer>> freshHashes() {
    return fresh;
  }
}
