package io.lagoon.core.dynamicbucket;

import io.lagoon.core.commit.CommitBase;
import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.manifest.BucketId;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.table.DataFilePaths;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.hadoop.fs.Path;

/**
 * The HASH index change of one commit attempt: every bucket that got new keys gets a new index
 * file with all its hashes (those of the base snapshot's file, then the new ones), which replaces
 * the old file's entry. Planned on the snapshot the attempt commits on, so a concurrent writer's
 * new keys in the same bucket are kept. A concurrent commit that put one of this write's new keys
 * into another bucket is a conflict: committing both would leave the key live in two buckets.
 */
public final class HashIndexUpdate {
  private HashIndexUpdate() {}

  /** The index entries to drop and to add. */
  public static final class Change {
    public final List<IndexManifestEntry> removed = new ArrayList<>();
    public final List<IndexManifestEntry> added = new ArrayList<>();
  }

  /**
   * @param fresh new key hashes by bucket, as the write assigned them
   * @param writeBase the snapshot the write assigned buckets on (-1 for none)
   * @param dropped partitions whose index this commit replaces whole (an overwrite), else null
   * @param written collects the index files this attempt writes
   * @throws CommitConflictException when a commit since {@code writeBase} gave one of the new keys
   *     another bucket
   */
  public static Change plan(CommitBase base, Map<BucketId, int[]> fresh, long writeBase, Predicate<byte[]> dropped,
                            List<Path> written) throws IOException {
    FileStoreTable table = base.table();
    Change change = new Change();
    Map<BucketId, IndexManifestEntry> current = new HashMap<>();
    Map<String, List<IndexManifestEntry>> byPartition = new HashMap<>();
    for (IndexManifestEntry e : base.index()) {
      if (!HashIndexFile.INDEX_TYPE.equals(e.indexType)) continue;
      if (dropped != null && dropped.test(e.partition)) {
        change.removed.add(e);
        continue;
      }
      if (current.put(e.bucketId(), e) != null) {
        throw new IOException("Corrupt index manifest of " + table.fullName() + ": two HASH index files for "
            + e.bucketId());
      }
      byPartition.computeIfAbsent(Arrays.toString(e.partition), k -> new ArrayList<>()).add(e);
    }
    if (fresh.isEmpty()) return change;
    checkConcurrentAssignments(base, fresh, writeBase, byPartition);
    DataFilePaths paths = table.paths();
    for (Map.Entry<BucketId, int[]> b : fresh.entrySet()) {
      if (b.getValue().length == 0) continue;
      IndexManifestEntry old = current.get(b.getKey());
      int[] had = old == null ? new int[0] : HashIndexFile.read(table.io(), paths.indexFile(old.fileName));
      int[] all = union(had, b.getValue());
      String name = DataFilePaths.newIndexFileName();
      Path file = paths.indexFile(name);
      written.add(file);
      long size = HashIndexFile.write(table.io(), file, all);
      if (old != null) change.removed.add(old);
      change.added.add(new IndexManifestEntry(FileKind.ADD, b.getKey().partition, b.getKey().bucket,
          HashIndexFile.INDEX_TYPE, name, size, all.length, List.of()));
    }
    return change;
  }

  /** {@code had}, then the hashes of {@code more} it does not hold yet. */
  static int[] union(int[] had, int[] more) {
    int[] sorted = had.clone();
    Arrays.sort(sorted);
    int[] out = Arrays.copyOf(had, had.length + more.length);
    int n = had.length;
    for (int h : more) if (Arrays.binarySearch(sorted, h) < 0) out[n++] = h;
    return Arrays.copyOf(out, n);
  }

  private static void checkConcurrentAssignments(CommitBase base, Map<BucketId, int[]> fresh, long writeBase,
                                                 Map<String, List<IndexManifestEntry>> byPartition) throws IOException {
    long at = base.snapshot().map(s -> s.id).orElse(0L);
    if (at == Math.max(writeBase, 0)) return; // nothing committed since the write read the index
    Set<String> seen = new HashSet<>();
    for (IndexManifestEntry e : SnapshotHashIndex.entries(base.table(), writeBase)) seen.add(e.fileName);
    Map<String, HashToBucket> mine = new LinkedHashMap<>();
    for (Map.Entry<BucketId, int[]> b : fresh.entrySet()) {
      HashToBucket m = mine.computeIfAbsent(Arrays.toString(b.getKey().partition), k -> new HashToBucket());
      for (int h : b.getValue()) m.put(h, b.getKey().bucket);
    }
    FileStoreTable table = base.table();
    for (Map.Entry<String, HashToBucket> p : mine.entrySet()) {
      for (IndexManifestEntry e : byPartition.getOrDefault(p.getKey(), List.of())) {
        if (seen.contains(e.fileName)) continue; // unchanged since the write's base
        for (int h : HashIndexFile.read(table.io(), table.paths().indexFile(e.fileName))) {
          int ours = p.getValue().get(h);
          if (ours >= 0 && ours != e.bucket) {
            throw new CommitConflictException("Dynamic-bucket conflict on " + table.fullName() + ": a concurrent "
                + "commit put a new key (hash " + h + ") into " + e.bucketId() + ", while this write put it into "
                + "bucket " + ours + "; nothing of this write was committed, run it again");
          }
        }
      }
    }
  }
}
