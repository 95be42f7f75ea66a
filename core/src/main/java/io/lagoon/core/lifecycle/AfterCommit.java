package io.lagoon.core.lifecycle;

import io.lagoon.core.snapshot.SnapshotManager;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.TableOptions;
import java.io.IOException;
import java.time.LocalDateTime;
import java.util.Optional;

/**
 * What Paimon does after each commit, unless {@code write-only} is set: expire snapshots by the
 * table's retention options, then delete tags whose retention has passed. It never fails the
 * commit, which is published already; what it could not do the next commit tries again.
 */
public final class AfterCommit {
  private AfterCommit() {}

  /** @param committed the id of the snapshot just published */
  public static void run(FileStoreTable table, long committed) {
    try {
      TableOptions o = table.options();
      if (o.writeOnly()) return;
      SnapshotManager sm = table.snapshots();
      Optional<Long> earliest = sm.earliestId();
      // Cheap check first: nothing can expire while the table holds at most retain-min snapshots.
      if (earliest.isPresent() && committed - earliest.get() + 1 > o.snapshotNumRetainedMin()) {
        new ExpireSnapshots(table).expire();
      }
      if (table.io().exists(table.tags().tagDir())) new TagChanges(table).expireByTime(LocalDateTime.now());
    } catch (IOException | RuntimeException e) {
      // retried after the next commit
    }
  }
}
