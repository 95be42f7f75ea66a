package io.lagoon.core.dynamicbucket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Where a cross-partition table's keys live, from the records of each bucket. */
class KeyLocationsTest {
  private static final byte[] P1 = {1};
  private static final byte[] P2 = {2};

  private static byte[] key(int k) {
    return new byte[] {(byte) k};
  }

  @Test
  void theNewestRecordOfABucketDecidesWhetherTheKeyLivesThere() {
    KeyLocations l = new KeyLocations();
    KeyLocations.BucketLoad b = l.bucket(P1, 3);
    b.record(key(1), 5, false);
    b.record(key(1), 9, true);  // retracted later: it moved away
    b.record(key(2), 7, false); // written again after a retraction, fed in any file order
    b.record(key(2), 4, true);
    b.record(key(3), 2, true);  // only retracted: lives nowhere
    b.close();
    KeyLocations.BucketLoad c = l.bucket(P2, 0);
    c.record(key(1), 1, false); // where key 1 moved (sequence numbers of other buckets do not compare)
    c.close();
    assertArrayEquals(P2, l.get(key(1)).partition);
    assertEquals(0, l.get(key(1)).bucket);
    assertEquals(3, l.get(key(2)).bucket);
    assertNull(l.get(key(3)));
    l.put(key(3), P2, 4);
    assertEquals(4, l.get(key(3)).bucket);
    l.remove(key(2));
    assertNull(l.get(key(2)));
  }

  @Test
  void aKeyLiveInTwoBucketsIsReported() {
    KeyLocations l = new KeyLocations();
    KeyLocations.BucketLoad b = l.bucket(P1, 0);
    b.record(key(1), 1, false);
    b.close();
    KeyLocations.BucketLoad c = l.bucket(P2, 5);
    c.record(key(1), 1, false);
    IllegalStateException e = assertThrows(IllegalStateException.class, c::close);
    assertEquals(true, e.getMessage().contains("live in two buckets"), e.getMessage());
  }
}
