package io.lagoon.core.dynamicbucket;

import java.util.Arrays;

/**
 * Key hash to bucket number, for millions of keys: open addressing over two int arrays (a boxed
 * map would take about ten times the memory a task can spare for the index of a large partition).
 */
final class HashToBucket {
  private static final int EMPTY = -1;
  private int[] hashes;
  private int[] buckets; // EMPTY marks a free slot
  private int size;

  HashToBucket() {
    hashes = new int[16];
    buckets = new int[16];
    Arrays.fill(buckets, EMPTY);
  }

  /** The bucket of {@code hash}, or -1. */
  int get(int hash) {
    int mask = hashes.length - 1;
    for (int i = mix(hash) & mask; ; i = (i + 1) & mask) {
      if (buckets[i] == EMPTY) return -1;
      if (hashes[i] == hash) return buckets[i];
    }
  }

  void put(int hash, int bucket) {
    if (bucket < 0) throw new IllegalArgumentException("bucket " + bucket);
    if ((size + 1) * 2 > hashes.length) grow();
    int mask = hashes.length - 1;
    for (int i = mix(hash) & mask; ; i = (i + 1) & mask) {
      if (buckets[i] == EMPTY) {
        hashes[i] = hash;
        buckets[i] = bucket;
        size++;
        return;
      }
      if (hashes[i] == hash) {
        buckets[i] = bucket;
        return;
      }
    }
  }

  int size() {
    return size;
  }

  private void grow() {
    int[] oldHashes = hashes;
    int[] oldBuckets = buckets;
    hashes = new int[oldHashes.length * 2];
    buckets = new int[oldHashes.length * 2];
    Arrays.fill(buckets, EMPTY);
    size = 0;
    for (int i = 0; i < oldHashes.length; i++) if (oldBuckets[i] != EMPTY) put(oldHashes[i], oldBuckets[i]);
  }

  /** Key hashes are Murmur outputs already, but spread them again: linear probing hates clusters. */
  private static int mix(int h) {
    h *= 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
