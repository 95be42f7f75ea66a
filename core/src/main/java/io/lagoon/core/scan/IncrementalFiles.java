package io.lagoon.core.scan;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.ManifestFileMeta;
import io.lagoon.core.snapshot.CommitKind;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.snapshot.SnapshotManager;
import io.lagoon.core.table.DataFilePaths;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The files a batch incremental read ({@code incremental-between}) takes, as Paimon defines it:
 * the data files added by the APPEND commits after {@code from} up to and including {@code to}
 * (compactions and overwrites add no new changes); on a primary-key table with a
 * {@code changelog-producer}, the changelog files of every commit in the range instead. Readers
 * return their records as written.
 */
public final class IncrementalFiles {
  private IncrementalFiles() {}

  /**
   * @param from the snapshot the changes start after (0: from the table's first commit)
   * @param to the last snapshot whose changes are read
   */
  public static List<ManifestEntry> between(FileStoreTable table, long from, long to) throws IOException {
    if (from > to) {
      throw new IllegalArgumentException("Incremental read of " + table.fullName() + " from snapshot " + from
          + " to " + to + ": the start must not be after the end");
    }
    String range = "between snapshots " + from + " and " + to;
    SnapshotManager snapshots = table.snapshots();
    boolean changelog = table.hasPrimaryKey() && !table.schema().options()
        .getOrDefault(io.lagoon.core.catalog.PrimaryKeyTableRules.CHANGELOG_PRODUCER, "none").equals("none");
    List<ManifestEntry> out = new ArrayList<>();
    for (long id = from + 1; id <= to; id++) {
      if (!snapshots.exists(id)) {
        throw new IllegalArgumentException("Incremental read of " + table.fullName() + " " + range + " needs snapshot " + id
            + ", which has expired or does not exist (snapshots " + table.timeTravel().available() + ")");
      }
      Snapshot s = snapshots.snapshot(id);
      // A table with a changelog producer keeps its changes apart: the changelog files every
      // commit (compactions included, for lookup and full-compaction producers) wrote.
      String list = changelog ? s.changelogManifestList : s.commitKind == CommitKind.APPEND ? s.deltaManifestList : null;
      if (list == null) continue;
      for (ManifestFileMeta m : table.manifests().readManifestList(list)) {
        for (ManifestEntry e : table.manifests().readManifest(m)) {
          if (e.kind == FileKind.ADD && e.bucket != DataFilePaths.POSTPONE_BUCKET) out.add(e);
        }
      }
    }
    return out;
  }

  /** One bucket's files that differ between two snapshots: those only the older holds, those only the newer. */
  public record BucketDiff(byte[] partition, int bucket, List<DataFileMeta> before, List<DataFileMeta> after) {
  }

  /**
   * The buckets whose files differ between snapshots {@code a} and {@code b}, as Paimon's
   * incremental read between two tags compares them: per bucket, the live files only {@code a}
   * holds and those only {@code b} holds (by file name). Level 0 is left out of primary-key tables
   * with deletion vectors, as every read leaves it out.
   */
  public static List<BucketDiff> diff(FileStoreTable table, Snapshot a, Snapshot b) throws IOException {
    boolean hideLevel0 = table.hasPrimaryKey() && table.options().deletionVectors();
    java.util.Map<String, ManifestEntry> before = new java.util.LinkedHashMap<>();
    java.util.Map<String, ManifestEntry> after = new java.util.LinkedHashMap<>();
    for (ManifestEntry e : LiveFiles.read(table.manifests(), a)) {
      if (!(hideLevel0 && e.file.level == 0) && e.bucket != DataFilePaths.POSTPONE_BUCKET) before.put(e.file.fileName, e);
    }
    for (ManifestEntry e : LiveFiles.read(table.manifests(), b)) {
      if (!(hideLevel0 && e.file.level == 0) && e.bucket != DataFilePaths.POSTPONE_BUCKET) after.put(e.file.fileName, e);
    }
    java.util.Map<String, BucketDiff> out = new java.util.LinkedHashMap<>();
    for (ManifestEntry e : before.values()) {
      if (!after.containsKey(e.file.fileName)) bucket(out, e).before.add(e.file);
    }
    for (ManifestEntry e : after.values()) {
      if (!before.containsKey(e.file.fileName)) bucket(out, e).after.add(e.file);
    }
    return new ArrayList<>(out.values());
  }

  private static BucketDiff bucket(java.util.Map<String, BucketDiff> out, ManifestEntry e) {
    return out.computeIfAbsent(java.util.Arrays.toString(e.partition) + "/" + e.bucket,
        k -> new BucketDiff(e.partition, e.bucket, new ArrayList<>(), new ArrayList<>()));
  }
}
