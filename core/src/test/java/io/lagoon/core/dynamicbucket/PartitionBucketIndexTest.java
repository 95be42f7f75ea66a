package io.lagoon.core.dynamicbucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Paimon's bucket choice for one partition and one assigner, without any files. */
class PartitionBucketIndexTest {
  @Test
  void knownKeysKeepTheirBucketAndNewOnesFillTheLowestBucketUpToTheTarget() {
    PartitionBucketIndex index = new PartitionBucketIndex(1, 0, 3, -1);
    index.load(5, 100);
    index.load(5, 101);
    index.load(2, 200);
    assertEquals(5, index.assign(100));
    assertEquals(2, index.assign(200));
    // Bucket 2 has room for two more, then bucket 5 for one more, then new buckets from 0 up.
    assertEquals(List.of(2, 2, 5, 0, 0, 0, 1), assignAll(index, 1, 2, 3, 4, 5, 6, 7));
    assertEquals(2, index.assign(1), "a key assigned once keeps its bucket");
    Map<Integer, List<Integer>> fresh = index.freshHashes();
    assertEquals(List.of(4, 5, 6), fresh.get(0));
    assertEquals(List.of(7), fresh.get(1));
    assertEquals(List.of(1, 2), fresh.get(2));
    assertEquals(List.of(3), fresh.get(5));
  }

  @Test
  void anAssignerMakesOnlyItsOwnBucketsAndLoadsOnlyItsOwnKeys() {
    // Assigner 1 of 3 owns buckets 1, 4, 7, ... and the hashes h with |h % 3| == 1.
    PartitionBucketIndex index = new PartitionBucketIndex(3, 1, 2, -1);
    index.load(0, 3);   // another assigner's key in another assigner's bucket
    index.load(4, 4);   // own key, own bucket
    index.load(0, 7);   // own key, in a bucket an earlier write with other assigners made
    assertEquals(0, index.assign(7));
    assertEquals(List.of(4, 1, 1, 7), assignAll(index, 1, 10, 13, -4));
    assertTrue(index.owns(7) && !index.owns(0));
    assertThrows(IllegalArgumentException.class, () -> index.assign(3), "another assigner's key");
  }

  @Test
  void atMaxBucketsNewKeysGoToExistingBucketsByHash() {
    PartitionBucketIndex index = new PartitionBucketIndex(1, 0, 1, 2);
    assertEquals(List.of(0, 1), assignAll(index, 10, 11));
    Map<Integer, Integer> counts = new HashMap<>();
    for (int h = 12; h < 40; h++) counts.merge(index.assign(h), 1, Integer::sum);
    assertEquals(List.of(0, 1), new ArrayList<>(new java.util.TreeSet<>(counts.keySet())));
  }

  @Test
  void anAssignerWithoutRoomForABucketSaysWhatToChange() {
    // max-buckets 2, assigner 2 of 3 owns bucket 2, 5, ...: none below the bound.
    PartitionBucketIndex index = new PartitionBucketIndex(3, 2, 10, 2);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> index.assign(2));
    assertTrue(e.getMessage().contains("dynamic-bucket.max-buckets"), e.getMessage());
  }

  @Test
  void millionsOfKeysFitInTheHashMap() {
    HashToBucket m = new HashToBucket();
    for (int i = 0; i < 1_000_000; i++) m.put(i * 0x61C88647, i & 1023);
    assertEquals(1_000_000, m.size());
    for (int i = 0; i < 1_000_000; i += 997) assertEquals(i & 1023, m.get(i * 0x61C88647));
    assertEquals(-1, m.get(0x61C88647 * 1_000_001));
  }

  private static List<Integer> assignAll(PartitionBucketIndex index, int... hashes) {
    List<Integer> out = new ArrayList<>();
    for (int h : hashes) out.add(index.assign(h));
    return out;
  }
}
