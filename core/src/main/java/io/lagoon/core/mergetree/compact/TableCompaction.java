package io.lagoon.core.mergetree.compact;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.deletionvectors.BucketVectors;
import io.lagoon.core.manifest.BucketId;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.CommitKind;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.operation.RewriteFiles;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.UncommittedFiles;
import io.lagoon.core.types.PaimonType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Compacts the buckets of a primary-key table from its latest snapshot and commits every bucket's
 * result in one {@link CommitKind#COMPACT} snapshot. The commit removes exactly the live entries
 * it read and keeps every level above 0 one sorted run ({@link LevelOverlapCheck}), so a
 * concurrent commit that removed or moved one of them, or wrote to the same level, is a conflict:
 * the files this compaction wrote are deleted (nothing references them) and the compaction is
 * planned again against the new snapshot, up to {@link #ATTEMPTS} times.
 */
public final class TableCompaction {
  /** Plans of a compaction before a conflict is reported: each attempt rereads the buckets. */
  static final int ATTEMPTS = 5;

  private TableCompaction() {}

  /** Full compaction: every matching bucket into one run on the top level. */
  public static Optional<Snapshot> full(FileStoreTable table, KeyValueSource source,
                                        Predicate<InternalRow> partitionFilter) throws IOException {
    return compact(table, source, partitionFilter, true);
  }

  /**
   * @param partitionFilter tests the partition row (partition columns in order); null = all
   * @param full true for full compactions, false for what a write compacts with
   *     ({@link BucketCompactor.Mode#afterWrite})
   * @return the new snapshot, or empty when no bucket needed compacting
   * @throws CommitConflictException when concurrent commits kept changing the files to replace
   */
  public static Optional<Snapshot> compact(FileStoreTable table, KeyValueSource source,
                                           Predicate<InternalRow> partitionFilter, boolean full) throws IOException {
    // The rewritten files are orphans until the compaction commits: keep orphan removal off them.
    try (io.lagoon.core.table.InflightWrites.Marker inflight = io.lagoon.core.table.InflightWrites.begin(table)) {
      return compactAttempts(table, source, partitionFilter, full);
    }
  }

  private static Optional<Snapshot> compactAttempts(FileStoreTable table, KeyValueSource source,
                                                    Predicate<InternalRow> partitionFilter, boolean full) throws IOException {
    List<PaimonType> partTypes = table.schema().partitionTypes();
    Predicate<ManifestEntry> buckets = partitionFilter == null ? e -> true
        : e -> partitionFilter.test(BinaryRows.deserialize(e.partition, partTypes));
    BucketCompactor.Mode mode = full ? BucketCompactor.Mode.FULL : BucketCompactor.Mode.afterWrite(table.schema());
    CommitConflictException lastConflict = null;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Optional<Snapshot> latest = table.snapshots().latest();
      if (latest.isEmpty()) return Optional.empty();
      try {
        return compactOnce(table, source, latest.get(), buckets, mode);
      } catch (CommitConflictException e) {
        lastConflict = e;
      }
    }
    throw new CommitConflictException("Compaction of " + table.fullName() + " gave up after " + ATTEMPTS
        + " attempts: concurrent commits changed the files it was replacing. No data was changed; run it again. "
        + "Last conflict: " + lastConflict.getMessage());
  }

  /**
   * Plans the compaction of the buckets {@code buckets} selects (tested on each live entry) on
   * {@code snapshot} and commits it, once.
   *
   * @return the new snapshot, or empty when no selected bucket needed compacting
   * @throws CommitConflictException when a concurrent commit changed what it read; nothing it
   *     wrote is left behind
   */
  public static Optional<Snapshot> compactOnce(FileStoreTable table, KeyValueSource source, Snapshot snapshot,
                                               Predicate<ManifestEntry> buckets, BucketCompactor.Mode mode)
      throws IOException {
    RewriteFiles rewrite = table.newRewrite();
    try {
      compactBuckets(table, source, buckets, mode, snapshot, rewrite);
    } catch (IOException | RuntimeException e) {
      UncommittedFiles.deleteData(table, rewrite.newDataFiles());
      UncommittedFiles.deleteIndex(table, rewrite.newIndexFiles());
      throw e;
    }
    return rewrite.commit();
  }

  /** Compacts the selected buckets of {@code snapshot} into {@code rewrite}. */
  private static void compactBuckets(FileStoreTable table, KeyValueSource source, Predicate<ManifestEntry> filter,
                                     BucketCompactor.Mode mode, Snapshot snapshot, RewriteFiles rewrite)
      throws IOException {
    for (io.lagoon.core.compaction.CompactionTask task
        : io.lagoon.core.compaction.CompactionPlanner.keyValueTasks(table, snapshot, filter, mode, source)) {
      Optional<io.lagoon.core.compaction.CompactionResult> result = task.run();
      if (result.isPresent()) result.get().addTo(rewrite);
    }
  }
}
