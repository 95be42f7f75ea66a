package io.lagoon.core.compaction;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.DataFilePaths;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Which files of a postponed-bucket table ({@code 'bucket'='-2'}) a compaction gives buckets, in
 * the order their records are replayed, and how many buckets each partition has. Records in
 * {@code bucket-postpone} carry no usable sequence numbers (Paimon writes -1): their order is the
 * files' creation order (ties keep manifest order, which is commit order) and the order inside a
 * file. A partition keeps the bucket count its files already have; a partition without any gets
 * {@code postpone.default-bucket-num}, as in Paimon.
 */
public final class PostponedBucketPlan implements Serializable {
  /** One postponed file, its partition's bucket count, and its place in the replay order. */
  // Java serialization also where Spark serializes with Kryo, which cannot rebuild records, immutable
  // lists or transient state.
  @DefaultSerializer(JavaSerializer.class)
  public record File(ManifestEntry entry, int buckets, int order) implements Serializable {
  }

  private final List<File> files;

  private PostponedBucketPlan(List<File> files) {
    this.files = List.copyOf(files);
  }

  /**
   * @param live every live file of the base snapshot
   * @param selection the files the compaction may take (its partitions)
   * @param defaultBuckets {@code postpone.default-bucket-num}
   */
  public static PostponedBucketPlan of(String table, java.util.Collection<ManifestEntry> live, Predicate<ManifestEntry> selection,
                                       int defaultBuckets) {
    Map<ByteBuffer, Integer> counts = bucketCounts(table, live);
    List<ManifestEntry> postponed = new ArrayList<>();
    for (ManifestEntry e : live) if (e.bucket == DataFilePaths.POSTPONE_BUCKET && selection.test(e)) postponed.add(e);
    postponed.sort(Comparator.comparingLong(e -> e.file.creationTimeMillis == null ? Long.MIN_VALUE : e.file.creationTimeMillis));
    List<File> out = new ArrayList<>();
    for (ManifestEntry e : postponed) {
      out.add(new File(e, counts.getOrDefault(ByteBuffer.wrap(e.partition), defaultBuckets), out.size()));
    }
    return new PostponedBucketPlan(out);
  }

  /**
   * Each partition's bucket count, from what its bucketed files record (postponed-bucket tables
   * are Paimon 1.1+, whose entries all record it); partitions without bucketed files are absent.
   *
   * @throws IllegalStateException when a partition's files record two counts
   */
  public static Map<ByteBuffer, Integer> bucketCounts(String table, java.util.Collection<ManifestEntry> live) {
    Map<ByteBuffer, Integer> counts = new HashMap<>();
    for (ManifestEntry e : live) {
      if (e.bucket < 0 || e.totalBuckets <= 0) continue;
      Integer had = counts.putIfAbsent(ByteBuffer.wrap(e.partition), e.totalBuckets);
      if (had != null && had != e.totalBuckets) {
        throw new IllegalStateException("Partition of " + table + " holds files of " + had + " and of " + e.totalBuckets
            + " buckets; Lagoon gives its rows no bucket until the partition has one bucket count");
      }
    }
    return counts;
  }

  /**
   * How many groups a batch write into a postponed-bucket table clusters its rows by (per
   * partition, by {@code abs(hash % groups)}): the greatest common divisor of every count a
   * partition may have, so that each bucket of every partition falls in exactly one group.
   */
  public static int writeGroups(java.util.Collection<Integer> counts, int defaultCount) {
    int g = defaultCount;
    for (int n : counts) g = gcd(g, n);
    return g;
  }

  private static int gcd(int a, int b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  /** The files in replay order. */
  public List<File> files() {
    return files;
  }

  public List<ManifestEntry> entries() {
    List<ManifestEntry> out = new ArrayList<>();
    for (File f : files) out.add(f.entry());
    return out;
  }

  public boolean isEmpty() {
    return files.isEmpty();
  }
}
