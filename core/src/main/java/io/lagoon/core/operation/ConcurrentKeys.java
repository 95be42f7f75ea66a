package io.lagoon.core.operation;

import io.lagoon.core.commit.CommitBase;
import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.dynamicbucket.AssignerPlan;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.ManifestFileMeta;
import io.lagoon.core.mergetree.LevelZeroVisibility;
import io.lagoon.core.mergetree.compact.FileKeys;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.CommitKind;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The check that no commit after a row-level statement read a primary-key table wrote records
 * for the keys the statement writes. Keys are compared by the key ranges of files in the same
 * bucket, so it may find a conflict where the keys only interleave: the statement then fails and
 * can be run again; it never misses one. Compactions only move records and are skipped, but
 * where level 0 is hidden from readers, records still on level 0 when the statement read count as
 * not read.
 *
 * <p>On a cross-partition table a key may live in any partition and bucket, and a write decides
 * where from what it read: so files are compared across the whole table, and any overwrite since
 * the read (it moved every key it wrote) is a conflict.
 */
final class ConcurrentKeys {
  /** The one scope of a cross-partition table's files. */
  private static final Object WHOLE_TABLE = new Object();

  private ConcurrentKeys() {}

  static void check(FileStoreTable table, long readAt, CommitBase base, List<ManifestEntry> added) throws IOException {
    check(table, readAt, base, added, true);
  }

  /**
   * @param readVisibleOnly the writer read values at {@code readAt} (a row-level statement), so
   *     records hidden from readers then count as unread; false for a writer that only continues
   *     the buckets' sequence numbers (postponed rows given buckets)
   */
  static void check(FileStoreTable table, long readAt, CommitBase base, List<ManifestEntry> added,
                    boolean readVisibleOnly) throws IOException {
    if (added.isEmpty()) return;
    boolean wholeTable = AssignerPlan.isCrossPartition(table);
    Function<ManifestEntry, Object> scope = wholeTable ? e -> WHOLE_TABLE : ManifestEntry::bucketId;
    Map<Object, List<ManifestEntry>> mine = new HashMap<>();
    for (ManifestEntry e : added) mine.computeIfAbsent(scope.apply(e), b -> new ArrayList<>()).add(e);
    FileKeys keys = FileKeys.of(table.schema());
    if (readVisibleOnly && readAt > 0 && LevelZeroVisibility.hidden(table.schema())) checkHiddenAt(table, readAt, mine, scope, keys);
    long latest = base.snapshot().map(s -> s.id).orElse(0L);
    // readAt -1: the write started on an empty table, so every commit is since.
    for (long id = Math.max(readAt, 0) + 1; id <= latest; id++) {
      Snapshot s;
      try {
        s = table.snapshots().snapshot(id);
      } catch (IOException e) {
        throw conflict(table, "snapshot " + id + " committed since it read the table cannot be read (" + e.getMessage() + ")");
      }
      if (s.commitKind == CommitKind.COMPACT) continue;
      boolean overwrite = s.commitKind == CommitKind.OVERWRITE;
      for (ManifestFileMeta m : table.manifests().readManifestList(s.deltaManifestList)) {
        for (ManifestEntry theirs : table.manifests().readManifest(m)) {
          if (overwrite && mine.containsKey(scope.apply(theirs))) {
            throw conflict(table, "snapshot " + id + " overwrote " + theirs.bucketId() + " after it read "
                + (wholeTable ? "where the keys it writes live" : "it"));
          }
          if (theirs.kind != FileKind.ADD) continue;
          for (ManifestEntry e : mine.getOrDefault(scope.apply(theirs), List.of())) {
            if (overlap(keys, e, theirs)) {
              throw conflict(table, "snapshot " + id + " wrote keys of " + theirs.bucketId()
                  + " that this statement also writes" + (wholeTable ? " (in " + e.bucketId() + ")" : "")
                  + ", after it read them");
            }
          }
        }
      }
    }
  }

  /**
   * Where readers skip level 0 (deletion vectors, first-row), records committed on level 0 but not
   * yet compacted were invisible to the statement's read: if they hold keys it writes, it worked on
   * values older than committed ones. (Their compaction is a COMPACT commit, skipped above.)
   */
  private static void checkHiddenAt(FileStoreTable table, long readAt, Map<Object, List<ManifestEntry>> mine,
                                    Function<ManifestEntry, Object> scope, FileKeys keys) throws IOException {
    Snapshot s;
    try {
      s = table.snapshots().snapshot(readAt);
    } catch (IOException e) {
      throw conflict(table, "snapshot " + readAt + " it read cannot be read again (" + e.getMessage() + ")");
    }
    for (ManifestEntry theirs : LiveFiles.read(table.manifests(), s)) {
      if (theirs.file.level != 0) continue;
      for (ManifestEntry e : mine.getOrDefault(scope.apply(theirs), List.of())) {
        if (overlap(keys, e, theirs)) {
          throw conflict(table, "when it read snapshot " + readAt + ", records of keys of " + theirs.bucketId()
              + " it also writes were committed but not yet compacted out of level 0, where readers do not see them");
        }
      }
    }
  }

  private static boolean overlap(FileKeys keys, ManifestEntry a, ManifestEntry b) {
    return keys.comparator().compare(keys.minKey(a.file), keys.maxKey(b.file)) <= 0
        && keys.comparator().compare(keys.minKey(b.file), keys.maxKey(a.file)) <= 0;
  }

  private static CommitConflictException conflict(FileStoreTable table, String why) {
    return new CommitConflictException("Concurrent change of " + table.fullName() + ": " + why
        + "; nothing was committed, run the statement again");
  }
}
