package io.lagoon.core.lifecycle;

import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.snapshot.SnapshotManager;
import io.lagoon.core.snapshot.Tag;
import io.lagoon.core.snapshot.TagManager;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Rolls a table back to a snapshot or a tag, as Paimon does: every newer snapshot is deleted, the
 * tags of newer snapshots too, and then the files only they used. A tag whose snapshot has expired
 * gets its snapshot file back from the tag.
 *
 * <p>Order, so that a process killed half-way leaves a readable table and only orphan files: the
 * restored snapshot file first (if any), then the newer snapshot files from the newest down (the
 * table reads as rolled back to the newest one left), then the newer tags, then the files. A rerun
 * finishes the job. Writers must not commit while a rollback runs (as with Paimon): a commit that
 * lands in between may be deleted with the newer snapshots.
 */
public final class Rollback {
  private final FileStoreTable table;
  private final SnapshotManager snapshots;
  private final TagManager tags;

  public Rollback(FileStoreTable table) {
    this.table = table;
    this.snapshots = table.snapshots();
    this.tags = table.tags();
  }

  /** To snapshot {@code id}; an id that only a tag still keeps rolls back to that tag. */
  public Snapshot toSnapshot(long id) throws IOException {
    if (snapshots.exists(id)) return rollTo(snapshots.snapshot(id), null);
    for (Tag t : tags.all()) if (t.snapshot.id == id) return rollTo(t.snapshot, t);
    throw new IllegalArgumentException("Cannot roll back " + table.fullName() + " to snapshot " + id + ": it does not exist; "
        + table.timeTravel().available());
  }

  public Snapshot toTag(String name) throws IOException {
    Optional<Tag> t = tags.get(name);
    if (t.isEmpty()) {
      throw new IllegalArgumentException("Cannot roll back " + table.fullName() + " to tag '" + name + "': it does not exist; "
          + table.timeTravel().available());
    }
    return rollTo(snapshots.exists(t.get().snapshot.id) ? snapshots.snapshot(t.get().snapshot.id) : t.get().snapshot, t.get());
  }

  /** To the last snapshot committed at or before {@code millis}. */
  public Snapshot toTimestamp(long millis) throws IOException {
    return rollTo(table.timeTravel().atOrBefore(millis), null);
  }

  private Snapshot rollTo(Snapshot target, Tag fromTag) throws IOException {
    long latest = snapshots.latestId().orElse(target.id);
    boolean restore = !snapshots.exists(target.id);
    // What goes: every newer snapshot's additions, and the newer tags.
    ReferencedFiles gone = ReferencedFiles.removable(table);
    SnapshotWalk.addRange(snapshots, target.id + 1, latest, gone);
    // addRange takes its first snapshot whole; the newer ones' additions are what matters, and a
    // whole first one only adds files the target also holds (kept below).
    List<Tag> newerTags = new ArrayList<>();
    for (Tag t : tags.all()) {
      if (t.snapshot.id > target.id) {
        newerTags.add(t);
        gone.addWhole(t.snapshot);
      }
    }
    // What stays: the target and everything older, the remaining tags, the other branches.
    ReferencedFiles kept = ReferencedFiles.kept(table);
    kept.addWhole(target);
    Optional<Long> earliest = snapshots.earliestId();
    if (earliest.isPresent() && earliest.get() < target.id) SnapshotWalk.addRange(snapshots, earliest.get(), target.id - 1, kept);
    SnapshotWalk.addTags(tags, t -> t.snapshot.id <= target.id, kept);
    SnapshotWalk.addBranches(table.io(), table.dir(), table.metadataDir(), kept);

    if (restore) {
      snapshots.tryPublishJson(target.id, fromTag.snapshotJson());
      snapshots.hint("EARLIEST", target.id);
    }
    FileCleaner cleaner = new FileCleaner(table);
    for (long id = latest; id > target.id; id--) cleaner.delete(snapshots.snapshotPath(id));
    snapshots.hint("LATEST", target.id);
    for (Tag t : newerTags) cleaner.delete(tags.tagPath(t.name));
    cleaner.deleteUnused(gone, kept);
    cleaner.removeEmptyDirectories();
    return target;
  }
}
