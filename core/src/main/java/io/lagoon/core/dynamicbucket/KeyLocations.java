package io.lagoon.core.dynamicbucket;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * Where each key of a cross-partition table (a primary key without the partition columns) is
 * live: the one (partition, bucket) whose newest record of the key is not a retraction. Built
 * bucket by bucket from the records of the bucket's live files (sequence numbers order records
 * within a bucket only), then kept up to date as a write moves keys.
 */
public final class KeyLocations {
  /** A key's partition (serialized) and bucket. */
  public static final class Location {
    public final byte[] partition;
    public final int bucket;

    Location(byte[] partition, int bucket) {
      this.partition = partition;
      this.bucket = bucket;
    }
  }

  private final Map<ByteBuffer, Location> live = new HashMap<>();
  private final Map<ByteBuffer, byte[]> partitions = new HashMap<>();

  /** The records of one bucket, fed in any order, then {@link #close}d. */
  public final class BucketLoad {
    private final byte[] partition;
    private final int bucket;
    private final Map<ByteBuffer, long[]> newest = new HashMap<>(); // key -> {sequence, isRetraction}

    BucketLoad(byte[] partition, int bucket) {
      this.partition = canonical(partition);
      this.bucket = bucket;
    }

    public void record(byte[] key, long sequence, boolean retraction) {
      long[] had = newest.get(ByteBuffer.wrap(key));
      if (had == null || had[0] < sequence) newest.put(ByteBuffer.wrap(key), new long[] {sequence, retraction ? 1 : 0});
    }

    /**
     * @return how many keys live in the bucket
     * @throws IllegalStateException when a key is also live in another bucket (the table breaks
     *     the rule every writer keeps)
     */
    public int close() {
      Location here = new Location(partition, bucket);
      int count = 0;
      for (Map.Entry<ByteBuffer, long[]> e : newest.entrySet()) {
        if (e.getValue()[1] == 1) continue;
        count++;
        Location other = live.put(e.getKey(), here);
        if (other != null) {
          throw new IllegalStateException("A key is live in two buckets (" + other.bucket + " and " + bucket
              + "), which a cross-partition table must never hold");
        }
      }
      return count;
    }
  }

  public BucketLoad bucket(byte[] partition, int bucket) {
    return new BucketLoad(partition, bucket);
  }

  /** Where the key (serialized) is live, or null. */
  public Location get(byte[] key) {
    return live.get(ByteBuffer.wrap(key));
  }

  public void put(byte[] key, byte[] partition, int bucket) {
    live.put(ByteBuffer.wrap(key), new Location(canonical(partition), bucket));
  }

  public void remove(byte[] key) {
    live.remove(ByteBuffer.wrap(key));
  }

  private byte[] canonical(byte[] partition) {
    return partitions.computeIfAbsent(ByteBuffer.wrap(partition), k -> partition);
  }
}
