package io.lagoon.core.lifecycle;

import io.lagoon.core.catalog.Names;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.snapshot.SnapshotManager;
import io.lagoon.core.snapshot.Tag;
import io.lagoon.core.snapshot.TagManager;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Creating, replacing, renaming and deleting tags with Paimon's rules. A tag keeps every file of
 * its snapshot alive (expiry and rollback honour it); deleting the last tag of an expired snapshot
 * deletes the files nothing else uses. A tag's retention ({@code time_retained}, else the table's
 * {@code tag.default-time-retained}) is stored as Paimon stores it and enforced after commits;
 * {@code tag.num-retained-max} keeps the newest tags, by snapshot.
 */
public final class TagChanges {
  private final FileStoreTable table;
  private final TagManager tags;
  private final SnapshotManager snapshots;

  public TagChanges(FileStoreTable table) {
    this.table = table;
    this.tags = table.tags();
    this.snapshots = table.snapshots();
  }

  /**
   * Tags a snapshot (the latest when {@code snapshotId} is null).
   *
   * @param retained null for the table's {@code tag.default-time-retained}
   * @return the tag written
   */
  public Tag create(String name, Long snapshotId, Duration retained) throws IOException {
    Names.checkPlain(name, "tag");
    if (tags.exists(name)) throw new IllegalArgumentException("Tag '" + name + "' of " + table.fullName() + " already exists");
    Tag tag = Tag.of(name, snapshotJson(snapshotId, "create"), LocalDateTime.now(),
        retained != null ? retained : table.options().tagDefaultTimeRetained());
    if (!tags.tryCreate(tag)) {
      throw new IllegalArgumentException("Tag '" + name + "' of " + table.fullName() + " already exists");
    }
    enforceMaxCount(name);
    return tag;
  }

  /** Points an existing tag at another snapshot (the latest when {@code snapshotId} is null). */
  public Tag replace(String name, Long snapshotId, Duration retained) throws IOException {
    Tag old = existing(name);
    Tag tag = Tag.of(name, snapshotJson(snapshotId, "replace"), LocalDateTime.now(),
        retained != null ? retained : table.options().tagDefaultTimeRetained());
    tags.overwrite(tag);
    cleanUp(List.of(old));
    return tag;
  }

  /** Renames a tag: the new name is published before the old one goes, so the snapshot is never untagged. */
  public void rename(String name, String target) throws IOException {
    Tag old = existing(name);
    Names.checkPlain(target, "tag");
    if (tags.exists(target)) throw new IllegalArgumentException("Tag '" + target + "' of " + table.fullName() + " already exists");
    Tag renamed = Tag.parse(target, old.toJson());
    if (!tags.tryCreate(renamed)) {
      throw new IllegalArgumentException("Tag '" + target + "' of " + table.fullName() + " already exists");
    }
    tags.delete(name);
  }

  /** Deletes tags (all named ones must exist, or nothing is deleted) and the files only they used. */
  public void delete(List<String> names) throws IOException {
    List<Tag> gone = new ArrayList<>();
    for (String n : names) gone.add(existing(n));
    for (Tag t : gone) tags.delete(t.name);
    cleanUp(gone);
  }

  /** Deletes the tags whose retention has passed; returns their names. */
  public List<String> expireByTime(LocalDateTime now) throws IOException {
    List<Tag> gone = new ArrayList<>();
    for (Tag t : tags.all()) if (t.expiredAt(now)) gone.add(t);
    for (Tag t : gone) tags.delete(t.name);
    cleanUp(gone);
    List<String> names = new ArrayList<>();
    for (Tag t : gone) names.add(t.name);
    return names;
  }

  /**
   * Deletes the tags created before {@code millis}: by their creation time where they have one (a
   * local date-time, read in this JVM's zone as Paimon writes it), else by the tag file's age.
   */
  public List<String> expireCreatedBefore(long millis) throws IOException {
    List<Tag> gone = new ArrayList<>();
    for (Tag t : tags.all()) {
      long created = t.createTime != null
          ? t.createTime.atZone(java.time.ZoneId.systemDefault()).toInstant().toEpochMilli()
          : tags.modificationTime(t.name);
      if (created < millis) gone.add(t);
    }
    for (Tag t : gone) tags.delete(t.name);
    cleanUp(gone);
    List<String> names = new ArrayList<>();
    for (Tag t : gone) names.add(t.name);
    return names;
  }

  /** {@code tag.num-retained-max}: the oldest tags (by snapshot, then name) beyond it go; {@code keep} never does. */
  private void enforceMaxCount(String keep) throws IOException {
    Integer max = table.options().tagNumRetainedMax();
    if (max == null) return;
    List<Tag> all = tags.all();
    List<Tag> gone = new ArrayList<>();
    for (int i = 0; i < all.size() && all.size() - gone.size() > max; i++) {
      if (!all.get(i).name.equals(keep)) gone.add(all.get(i));
    }
    for (Tag t : gone) tags.delete(t.name);
    cleanUp(gone);
  }

  /**
   * The files only these (deleted or re-pointed) tags used. A tag whose snapshot is still live
   * holds nothing of its own; otherwise what stays is every snapshot, the remaining tags and the
   * other branches.
   */
  private void cleanUp(List<Tag> removed) throws IOException {
    ReferencedFiles gone = ReferencedFiles.removable(table);
    boolean any = false;
    for (Tag t : removed) {
      if (snapshots.exists(t.snapshot.id)) continue;
      gone.addWhole(t.snapshot);
      any = true;
    }
    if (!any) return;
    ReferencedFiles kept = ReferencedFiles.kept(table);
    SnapshotWalk.addAll(snapshots, kept);
    SnapshotWalk.addTags(tags, t -> true, kept);
    SnapshotWalk.addBranches(table.io(), table.dir(), table.metadataDir(), kept);
    FileCleaner cleaner = new FileCleaner(table);
    cleaner.deleteUnused(gone, kept);
    cleaner.removeEmptyDirectories();
  }

  private Tag existing(String name) throws IOException {
    Optional<Tag> t = tags.get(name);
    if (t.isEmpty()) {
      throw new IllegalArgumentException("Tag '" + name + "' of " + table.fullName() + " does not exist; its tags are " + tags.names());
    }
    return t.get();
  }

  /** The JSON of the snapshot to tag: a live snapshot, else one a tag keeps (its snapshot expired). */
  private String snapshotJson(Long id, String verb) throws IOException {
    if (id == null) {
      Optional<Snapshot> latest = snapshots.latest();
      if (latest.isEmpty()) {
        throw new IllegalArgumentException("Cannot " + verb + " a tag of " + table.fullName() + ": it has no snapshot yet");
      }
      Optional<String> json = snapshots.json(latest.get().id);
      if (json.isPresent()) return json.get();
      id = latest.get().id;
    }
    Optional<String> json = snapshots.json(id);
    if (json.isPresent()) return json.get();
    for (Tag t : tags.all()) if (t.snapshot.id == id) return t.snapshotJson();
    throw new IllegalArgumentException("Cannot " + verb + " a tag of " + table.fullName() + ": snapshot " + id
        + " does not exist; " + table.timeTravel().available());
  }
}
