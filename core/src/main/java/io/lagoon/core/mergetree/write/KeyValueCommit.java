package io.lagoon.core.mergetree.write;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.deletionvectors.BucketVectorChange;
import io.lagoon.core.dynamicbucket.AssignerPlan;
import io.lagoon.core.dynamicbucket.KeyAssignments;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.compact.LevelZeroPromotion;
import io.lagoon.core.operation.AppendFiles;
import io.lagoon.core.operation.RewriteFiles;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.UncommittedFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Driver side of a primary-key write: commits every task's new files in one APPEND (or OVERWRITE)
 * snapshot, then what write-triggered compaction produced in one COMPACT snapshot (an overwrite
 * commits the compacted files directly). A compaction that lost a race (a file it replaces is
 * gone, or a concurrent compaction wrote to the same level or vectors) is dropped and its outputs
 * deleted; the appended data stays. Where readers see level 0 a later compaction redoes the work;
 * where they skip it, the buckets are compacted again right away ({@link LevelZeroPromotion}), so
 * that a write that returns is visible.
 */
public final class KeyValueCommit {
  private KeyValueCommit() {}

  /**
   * @param overwritePartitions null to append; else the partitions whose live files the write replaces
   */
  public static void commit(FileStoreTable table, List<KeyValueWriteResult> results,
                            Predicate<InternalRow> overwritePartitions) throws IOException {
    commit(table, results, overwritePartitions, null);
  }

  /**
   * @param overwritePartitions null to append; else the partitions whose live files the write replaces
   * @param source reads the table's files to compact again after a lost compaction on tables whose
   *     readers skip level 0; null when the write does not compact ({@code write-only})
   */
  public static void commit(FileStoreTable table, List<KeyValueWriteResult> results,
                            Predicate<InternalRow> overwritePartitions, KeyValueSource source) throws IOException {
    commit(table, results, overwritePartitions, source, -1);
  }

  /**
   * @param rowLevelReadAt for a row-level statement (DELETE, UPDATE, MERGE), the snapshot it read:
   *     a commit after it that wrote the same keys is a conflict; -1 for an INSERT
   */
  public static void commit(FileStoreTable table, List<KeyValueWriteResult> results,
                            Predicate<InternalRow> overwritePartitions, KeyValueSource source, long rowLevelReadAt)
      throws IOException {
    commit(table, results, overwritePartitions, source, (added, changelog, keys) -> {
      if (rowLevelReadAt < 0) {
        AppendFiles append = table.newAppend().add(added).addChangelog(changelog).assignKeys(keys);
        if (AssignerPlan.isCrossPartition(table) && !results.isEmpty()) {
          append.validateNoConcurrentKeys(results.get(0).assignedOn);
        }
        append.commit();
      } else {
        table.newRowDelta().addFiles(added).addChangelog(changelog).assignKeys(keys)
            .validateNoConcurrentKeys(rowLevelReadAt).commit();
      }
    });
  }

  /**
   * Commits postponed-bucket rows given buckets: the new files replace the {@code bucket-postpone}
   * files they were read from in one APPEND snapshot ({@link io.lagoon.core.operation.AppendFiles#consumePostponed}),
   * then what write-triggered compaction produced, as after an INSERT.
   *
   * @param readAt the snapshot whose files the writers continued (sequence numbers) and read
   */
  public static void commitPostponed(FileStoreTable table, List<KeyValueWriteResult> results,
                                     List<ManifestEntry> postponed, long readAt, KeyValueSource source)
      throws IOException {
    commit(table, results, null, source,
        (added, changelog, keys) -> table.newAppend().add(added).addChangelog(changelog)
            .consumePostponed(postponed, readAt).commit());
  }

  /**
   * Commits an overwrite of some partitions of a cross-partition table ({@link AssignerPlan#replacing}):
   * its writers located the new rows' keys on snapshot {@code keysLocatedAt} and retracted those
   * living in the partitions left alone, in the same snapshot. A commit since then that wrote any
   * of its keys is a conflict. Its tasks do not compact (their buckets hold files the overwrite
   * drops); where readers skip level 0 the buckets are compacted after the commit.
   */
  public static void commitOverwriteLocatingKeys(FileStoreTable table, List<KeyValueWriteResult> results,
                                                 Predicate<InternalRow> overwritePartitions, KeyValueSource source,
                                                 long keysLocatedAt) throws IOException {
    commit(table, results, overwritePartitions, source, keysLocatedAt, null);
  }

  /** The snapshot that adds a write's new files and its changelog files. */
  private interface DataCommit {
    void commit(List<ManifestEntry> added, List<ManifestEntry> changelog, KeyAssignments keys) throws IOException;
  }

  private static void commit(FileStoreTable table, List<KeyValueWriteResult> results,
                             Predicate<InternalRow> overwritePartitions, KeyValueSource source, DataCommit dataCommit)
      throws IOException {
    commit(table, results, overwritePartitions, source, NOT_LOCATED, dataCommit);
  }

  /** No overwrite of some partitions of a cross-partition table: nothing to validate. */
  private static final long NOT_LOCATED = Long.MIN_VALUE;

  private static void commit(FileStoreTable table, List<KeyValueWriteResult> results,
                             Predicate<InternalRow> overwritePartitions, KeyValueSource source, long keysLocatedAt,
                             DataCommit dataCommit) throws IOException {
    List<ManifestEntry> added = new ArrayList<>();
    List<ManifestEntry> changelog = new ArrayList<>();
    List<ManifestEntry> before = new ArrayList<>();
    List<ManifestEntry> after = new ArrayList<>();
    List<BucketVectorChange> vectors = new ArrayList<>();
    KeyAssignments keys = new KeyAssignments(results.isEmpty() ? -1 : results.get(0).assignedOn);
    for (KeyValueWriteResult r : results) {
      keys.add(r.freshHashes);
      added.addAll(r.newFiles);
      changelog.addAll(r.changelogFiles);
      before.addAll(r.compactBefore);
      after.addAll(r.compactAfter);
      vectors.addAll(r.vectorChanges);
    }
    RewriteFiles compaction = table.newRewrite().replace(before, after).vectors(vectors);
    if (overwritePartitions != null) {
      // As Paimon: an overwrite commits no changelog (streaming readers skip overwrite snapshots).
      UncommittedFiles.deleteData(table, changelog);
      List<ManifestEntry> committed = overwrite(table, added, compaction, overwritePartitions, keys, keysLocatedAt);
      if (source != null) LevelZeroPromotion.untilVisible(table, source, committed);
      return;
    }
    try {
      dataCommit.commit(added, changelog, keys);
    } catch (IOException | RuntimeException e) {
      abandon(table, compaction);
      throw e;
    }
    boolean compacted = false;
    if (!compaction.isEmpty()) {
      try {
        compaction.commit();
        compacted = true;
      } catch (CommitConflictException e) {
        // dropped, its files deleted by the committer; the appended data stays
      }
    }
    if (source != null && !(compacted && replacedAll(before, added))) {
      LevelZeroPromotion.untilVisible(table, source, added);
    }
  }

  /** A compaction that will never be committed: its outputs and index files go. */
  private static void abandon(FileStoreTable table, RewriteFiles compaction) {
    UncommittedFiles.deleteData(table, compaction.newDataFiles());
    UncommittedFiles.deleteIndex(table, compaction.newIndexFiles());
  }

  /**
   * An overwrite's compaction can only have merged the overwrite's own new files, so the snapshot
   * takes the compacted set directly; the level-0 files it replaced are deleted afterwards.
   */
  private static List<ManifestEntry> overwrite(FileStoreTable table, List<ManifestEntry> added,
                                               RewriteFiles compaction, Predicate<InternalRow> partitions,
                                               KeyAssignments keys, long keysLocatedAt) throws IOException {
    Set<ManifestEntry.FileId> replaced = new HashSet<>();
    for (ManifestEntry e : compaction.removed()) replaced.add(e.id());
    List<ManifestEntry> files = new ArrayList<>();
    List<ManifestEntry> obsolete = new ArrayList<>();
    for (ManifestEntry e : added) (replaced.contains(e.id()) ? obsolete : files).add(e);
    files.addAll(compaction.added());
    Set<ManifestEntry.FileId> kept = new HashSet<>();
    for (ManifestEntry e : compaction.added()) kept.add(e.id());
    obsolete.removeIf(e -> kept.contains(e.id()));
    try {
      io.lagoon.core.operation.OverwriteFiles overwrite = table.newOverwrite(partitions).add(files).assignKeys(keys);
      if (keysLocatedAt != NOT_LOCATED) overwrite.validateNoConcurrentKeys(keysLocatedAt);
      overwrite.commit();
    } finally {
      UncommittedFiles.deleteData(table, obsolete);
    }
    return files;
  }

  /** Whether the committed compaction replaced every new file (nothing of the write left on level 0). */
  private static boolean replacedAll(List<ManifestEntry> before, List<ManifestEntry> added) {
    Set<ManifestEntry.FileId> replaced = new HashSet<>();
    for (ManifestEntry e : before) replaced.add(e.id());
    for (ManifestEntry e : added) if (!replaced.contains(e.id())) return false;
    return true;
  }
}
