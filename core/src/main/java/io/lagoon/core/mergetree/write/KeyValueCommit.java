package io.lagoon.core.mergetree.write;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.commit.FileStoreCommit;
import io.lagoon.core.deletionvectors.BucketVectorChange;
import io.lagoon.core.deletionvectors.VectorIndexCommit;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.compact.LevelOverlapCheck;
import io.lagoon.core.mergetree.compact.LevelZeroPromotion;
import io.lagoon.core.snapshot.CommitKind;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.write.PartitionExtractor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.hadoop.fs.Path;
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
    List<ManifestEntry> added = new ArrayList<>();
    List<ManifestEntry> before = new ArrayList<>();
    List<ManifestEntry> after = new ArrayList<>();
    List<BucketVectorChange> vectors = new ArrayList<>();
    for (KeyValueWriteResult r : results) {
      added.addAll(r.newFiles);
      before.addAll(r.compactBefore);
      after.addAll(r.compactAfter);
      vectors.addAll(r.vectorChanges);
    }
    FileStoreCommit commit = new FileStoreCommit(table);
    if (overwritePartitions != null) {
      overwrite(table, commit, results, added, before, after, overwritePartitions);
      return;
    }
    try {
      commit.append(added);
    } catch (IOException | RuntimeException e) {
      deleteWritten(table, results);
      throw e;
    }
    boolean compacted = false;
    if (!before.isEmpty() || !after.isEmpty()) {
      try {
        commit.replace(before, after, CommitKind.COMPACT, vectors.isEmpty() ? null : new VectorIndexCommit(table, vectors),
            new LevelOverlapCheck(table));
        compacted = true;
      } catch (CommitConflictException e) {
        deleteOutputs(table, before, after);
        deleteIndexFiles(table, vectors);
      }
    }
    if (source != null && !(compacted && replacedAll(before, added))) {
      LevelZeroPromotion.untilVisible(table, source, added);
    }
  }

  /** Whether the committed compaction replaced every new file (nothing of the write left on level 0). */
  private static boolean replacedAll(List<ManifestEntry> before, List<ManifestEntry> added) {
    Set<ManifestEntry.FileId> replaced = new HashSet<>();
    for (ManifestEntry e : before) replaced.add(e.id());
    for (ManifestEntry e : added) if (!replaced.contains(e.id())) return false;
    return true;
  }

  /** New deletion-vector index files the tasks wrote (none was committed). */
  private static void deleteIndexFiles(FileStoreTable table, List<BucketVectorChange> changes) {
    for (BucketVectorChange c : changes) {
      if (c.newEntry == null) continue;
      try {
        table.io().delete(new Path(new Path(table.dir(), "index"), c.newEntry.fileName), false);
      } catch (IOException | RuntimeException ignore) {
        // an unreferenced file at worst
      }
    }
  }

  /**
   * An overwrite's compaction can only have merged the overwrite's own new files, so the snapshot
   * takes the compacted set directly; the level-0 files it replaced are deleted afterwards.
   */
  private static void overwrite(FileStoreTable table, FileStoreCommit commit, List<KeyValueWriteResult> results,
                                List<ManifestEntry> added, List<ManifestEntry> before, List<ManifestEntry> after,
                                Predicate<InternalRow> partitions) throws IOException {
    Set<ManifestEntry.FileId> replaced = new HashSet<>();
    for (ManifestEntry e : before) replaced.add(e.id());
    List<ManifestEntry> files = new ArrayList<>();
    for (ManifestEntry e : added) if (!replaced.contains(e.id())) files.add(e);
    files.addAll(after);
    try {
      commit.overwrite(files, partitions);
    } catch (IOException | RuntimeException e) {
      deleteWritten(table, results);
      throw e;
    }
    Set<ManifestEntry.FileId> kept = new HashSet<>();
    for (ManifestEntry e : after) kept.add(e.id());
    List<ManifestEntry> obsolete = new ArrayList<>();
    for (ManifestEntry e : before) if (!kept.contains(e.id())) obsolete.add(e);
    delete(table, obsolete);
  }

  /** Deletes every file the tasks wrote (nothing of it was committed). */
  public static void deleteWritten(FileStoreTable table, List<KeyValueWriteResult> results) {
    for (KeyValueWriteResult r : results) {
      delete(table, r.newFiles);
      deleteOutputs(table, r.compactBefore, r.compactAfter);
      deleteIndexFiles(table, r.vectorChanges);
    }
  }

  /** Compaction outputs, except files it only moved to another level (those are still live). */
  private static void deleteOutputs(FileStoreTable table, List<ManifestEntry> before, List<ManifestEntry> after) {
    Set<ManifestEntry.FileId> kept = new HashSet<>();
    for (ManifestEntry e : before) kept.add(e.id());
    List<ManifestEntry> outputs = new ArrayList<>();
    for (ManifestEntry e : after) if (!kept.contains(e.id())) outputs.add(e);
    delete(table, outputs);
  }

  private static void delete(FileStoreTable table, List<ManifestEntry> entries) {
    PartitionExtractor paths = new PartitionExtractor(table.schema(), table.options().partitionDefaultName());
    for (ManifestEntry e : entries) {
      try {
        table.io().delete(new Path(table.bucketDir(paths.path(e.partition), e.bucket), e.file.fileName), false);
      } catch (IOException | RuntimeException ignore) {
        // an unreferenced file at worst
      }
    }
  }
}
