package io.lagoon.core.mergetree.compact;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.manifest.BucketId;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.FileStoreTable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The commit-time check that keeps every level above 0 one sorted run. Two compactions planned on
 * the same snapshot can replace disjoint files and still write outputs to the same level with
 * overlapping key ranges (two writers pushing their own level-0 files up, say); committing both
 * would leave a key in two files of one level, which readers that skip merging and every later
 * compaction take for a sorted run. Paimon's commit refuses such a change the same way.
 */
public final class LevelOverlapCheck {
  private LevelOverlapCheck() {}

  /**
   * @param live the latest snapshot's live files
   * @param changes the commit's entries, DELETEs before ADDs
   * @throws CommitConflictException when a level above 0 would hold overlapping files
   */
  public static void check(FileStoreTable table, Collection<ManifestEntry> live, List<ManifestEntry> changes) {
    // The levels above 0 that receive a file, per bucket.
    Map<BucketId, Map<Integer, Map<ManifestEntry.FileId, ManifestEntry>>> levels = new HashMap<>();
    for (ManifestEntry e : changes) {
      if (e.kind == FileKind.ADD && e.file.level > 0) {
        levels.computeIfAbsent(e.bucketId(), b -> new HashMap<>()).put(e.file.level, new LinkedHashMap<>());
      }
    }
    if (levels.isEmpty()) return;
    for (ManifestEntry e : live) {
      Map<ManifestEntry.FileId, ManifestEntry> files = level(levels, e);
      if (files != null) files.put(e.id(), e);
    }
    // The levels as the commit leaves them (deletes come before adds; a DELETE names the level
    // the file was live on).
    for (ManifestEntry e : changes) {
      Map<ManifestEntry.FileId, ManifestEntry> files = level(levels, e);
      if (files == null) continue;
      if (e.kind == FileKind.DELETE) files.remove(e.id());
      else files.put(e.id(), e);
    }
    FileKeys keys = FileKeys.of(table.schema());
    for (Map<Integer, Map<ManifestEntry.FileId, ManifestEntry>> bucket : levels.values()) {
      for (Map<ManifestEntry.FileId, ManifestEntry> files : bucket.values()) {
        List<ManifestEntry> level = new ArrayList<>(files.values());
        level.sort((a, b) -> keys.compareRange(a.file, b.file));
        for (int i = 1; i < level.size(); i++) {
          DataFileMeta prev = level.get(i - 1).file;
          DataFileMeta cur = level.get(i).file;
          if (keys.comparator().compare(keys.maxKey(prev), keys.minKey(cur)) >= 0) {
            throw new CommitConflictException("Level conflict on " + table.fullName() + ": " + level.get(i).bucketId()
                + " would hold " + prev.fileName + " and " + cur.fileName + " on level " + cur.level
                + " with overlapping keys; a concurrent compaction wrote to the same level, so this one must be redone");
          }
        }
      }
    }
  }

  private static Map<ManifestEntry.FileId, ManifestEntry> level(
      Map<BucketId, Map<Integer, Map<ManifestEntry.FileId, ManifestEntry>>> levels, ManifestEntry e) {
    Map<Integer, Map<ManifestEntry.FileId, ManifestEntry>> bucket = levels.get(e.bucketId());
    return bucket == null ? null : bucket.get(e.file.level);
  }
}
