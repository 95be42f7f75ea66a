package io.lagoon.core.mergetree.compact;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.commit.RetryBackoff;
import io.lagoon.core.manifest.BucketId;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.LevelZeroVisibility;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Makes a committed write visible on a table whose readers skip level 0 ({@link
 * LevelZeroVisibility}: deletion vectors, first-row). A write's own compaction can lose its commit
 * to another writer's compaction of the same buckets and be dropped; its rows would then stay on
 * level 0, committed but unseen, until some later write happened to compact those buckets. So
 * after the write commits, every bucket still holding one of its level-0 files is compacted again,
 * planned on the latest snapshot, until none is left; a compaction that loses again is re-planned.
 */
public final class LevelZeroPromotion {
  private LevelZeroPromotion() {}

  /**
   * @param written ADD entries of the level-0 files the write committed
   * @throws CommitConflictException when {@code commit.max-retries} compactions in a row lost to
   *     concurrent commits; the write is committed, its rows wait for the next compaction
   */
  public static void untilVisible(FileStoreTable table, KeyValueSource source, List<ManifestEntry> written)
      throws IOException {
    if (written.isEmpty() || !LevelZeroVisibility.hidden(table.schema())) return;
    Set<ManifestEntry.FileId> mine = new HashSet<>();
    for (ManifestEntry e : written) if (e.file.level == 0) mine.add(e.id());
    BucketCompactor.Mode mode = BucketCompactor.Mode.afterWrite(table.schema());
    int maxRetries = table.options().commitMaxRetries();
    CommitConflictException last = null;
    for (int attempt = 0; ; attempt++) {
      Snapshot latest = table.snapshots().latest().orElseThrow(() -> new IllegalStateException(
          "Table " + table.fullName() + " has no snapshot after a committed write"));
      Set<BucketId> pending = pending(table, latest, mine);
      if (pending.isEmpty()) return;
      if (attempt > maxRetries) {
        throw new CommitConflictException("The write into " + table.fullName() + " is committed, but its rows in "
            + pending.size() + " bucket(s) (" + pending.iterator().next() + " ...) are still on level 0, which "
            + "readers of this table skip: " + attempt + " compactions of them lost to concurrent commits "
            + "(commit.max-retries=" + maxRetries + "). They become visible with the next compaction of these "
            + "buckets. Last conflict: " + last.getMessage());
      }
      try {
        Optional<Snapshot> done = TableCompaction.compactOnce(table, source, latest,
            e -> pending.contains(e.bucketId()), mode);
        if (done.isEmpty()) {
          throw new IllegalStateException("Compaction of " + pending + " of " + table.fullName()
              + " found nothing to do while level-0 files of a write are still live there");
        }
      } catch (CommitConflictException e) {
        last = e;
        RetryBackoff.pause(attempt);
      }
    }
  }

  /** Buckets in which one of the write's files is still live on level 0. */
  private static Set<BucketId> pending(FileStoreTable table, Snapshot latest, Set<ManifestEntry.FileId> mine)
      throws IOException {
    Set<BucketId> out = new HashSet<>();
    for (ManifestEntry e : LiveFiles.read(table.manifests(), latest)) {
      if (e.file.level == 0 && mine.contains(e.id())) out.add(e.bucketId());
    }
    return out;
  }
}
