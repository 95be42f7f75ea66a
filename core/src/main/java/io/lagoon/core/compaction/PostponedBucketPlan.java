package io.lagoon.core.compaction;

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
    Map<ByteBuffer, Integer> counts = new HashMap<>();
    List<ManifestEntry> postponed = new ArrayList<>();
    for (ManifestEntry e : live) {
      if (e.bucket == DataFilePaths.POSTPONE_BUCKET) {
        if (selection.test(e)) postponed.add(e);
        continue;
      }
      // Postponed-bucket tables are Paimon 1.1+, whose entries all record their bucket count.
      if (e.bucket < 0 || e.totalBuckets <= 0) continue;
      int n = e.totalBuckets;
      Integer had = counts.putIfAbsent(ByteBuffer.wrap(e.partition), n);
      if (had != null && had != n) {
        throw new IllegalStateException("Partition of " + table + " holds files of " + had + " and of " + n
            + " buckets; its postponed rows cannot be given buckets until it has one bucket count");
      }
    }
    postponed.sort(Comparator.comparingLong(e -> e.file.creationTimeMillis == null ? Long.MIN_VALUE : e.file.creationTimeMillis));
    List<File> out = new ArrayList<>();
    for (ManifestEntry e : postponed) {
      out.add(new File(e, counts.getOrDefault(ByteBuffer.wrap(e.partition), defaultBuckets), out.size()));
    }
    return new PostponedBucketPlan(out);
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
