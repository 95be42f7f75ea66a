package io.lagoon.core.lifecycle;

import io.lagoon.core.catalog.Names;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.schema.SchemaManager;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.snapshot.SnapshotManager;
import io.lagoon.core.snapshot.Tag;
import io.lagoon.core.snapshot.TagManager;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Branches as Paimon stores them: {@code branch/branch-<name>/} holds the branch's own
 * {@code schema/}, {@code snapshot/} and {@code tag/}; data files, manifests and index files stay
 * in the table's folders, shared. A new branch is empty (with the table's schemas) or starts at a
 * tag; deleting one deletes the files only it used; fast-forward makes the main branch what the
 * branch is, as Paimon does (main's snapshots from the branch's earliest on, and their tags, are
 * replaced by the branch's).
 */
public final class BranchChanges {
  private final FileStoreTable table;
  private final FileIO io;

  /** @param table the main branch of the table */
  public BranchChanges(FileStoreTable table) {
    if (!FileStoreTable.MAIN.equals(table.branch())) {
      throw new IllegalArgumentException("Branches are made from the table itself, not from branch '" + table.branch() + "'");
    }
    this.table = table;
    this.io = table.io();
  }

  /** The branch names, sorted. */
  public List<String> names() throws IOException {
    List<String> out = new ArrayList<>();
    for (Path d : SnapshotWalk.branchDirs(io, table.dir())) out.add(d.getName().substring("branch-".length()));
    out.sort(String::compareTo);
    return out;
  }

  private Path dir(String branch) {
    return FileStoreTable.branchDir(table.dir(), branch);
  }

  /** Creates a branch: empty with the table's schemas, or at a tag (its snapshot and the tag itself). */
  public void create(String branch, String fromTag) throws IOException {
    Names.checkPlain(branch, "branch");
    if (FileStoreTable.MAIN.equals(branch)) throw new IllegalArgumentException("Branch name 'main' is the table itself");
    if (branch.chars().allMatch(Character::isDigit)) {
      throw new IllegalArgumentException("Branch name '" + branch + "' is a number; Paimon refuses numeric branch names");
    }
    if (io.exists(dir(branch))) throw new IllegalArgumentException("Branch '" + branch + "' of " + table.fullName() + " already exists");
    Tag tag = null;
    if (fromTag != null) {
      Optional<Tag> t = table.tags().get(fromTag);
      if (t.isEmpty()) {
        throw new IllegalArgumentException("Tag '" + fromTag + "' of " + table.fullName() + " does not exist; its tags are "
            + table.tags().names());
      }
      tag = t.get();
    }
    // Schemas first (schema-0 published create-if-absent claims the name), then the tag, then
    // the snapshot: a branch interrupted half-way is an empty branch, never a broken one.
    SchemaManager from = table.schemas();
    SchemaManager to = new SchemaManager(io, dir(branch));
    long lastSchema = tag != null ? tag.snapshot.schemaId : from.latest().orElseThrow().id();
    boolean first = true;
    for (long id : from.listIds()) {
      if (id > lastSchema) break;
      String json = io.readUtf8(from.schemaPath(id));
      io.mkdirs(to.schemaDir());
      if (!io.tryPublish(to.schemaPath(id), json) && first) {
        throw new IllegalArgumentException("Branch '" + branch + "' of " + table.fullName() + " already exists");
      }
      first = false;
    }
    if (tag != null) {
      new TagManager(io, dir(branch)).tryCreate(tag);
      SnapshotManager snapshots = new SnapshotManager(io, dir(branch));
      snapshots.tryPublishJson(tag.snapshot.id, tag.snapshotJson());
      snapshots.hint("EARLIEST", tag.snapshot.id);
      snapshots.hint("LATEST", tag.snapshot.id);
    }
  }

  /** Deletes branches (all must exist, or nothing is deleted) and the files only they used. */
  public void delete(List<String> branches) throws IOException {
    List<String> existing = names();
    for (String b : branches) {
      if (!existing.contains(b)) {
        throw new IllegalArgumentException("Branch '" + b + "' of " + table.fullName() + " does not exist; its branches are "
            + existing);
      }
    }
    for (String b : branches) {
      ReferencedFiles gone = ReferencedFiles.removable(table);
      SnapshotWalk.addAll(new SnapshotManager(io, dir(b)), gone);
      SnapshotWalk.addTags(new TagManager(io, dir(b)), t -> true, gone);
      io.delete(dir(b), true);
      ReferencedFiles kept = ReferencedFiles.kept(table);
      SnapshotWalk.addBranches(io, table.dir(), null, kept);
      FileCleaner cleaner = new FileCleaner(table);
      cleaner.deleteUnused(gone, kept);
      cleaner.removeEmptyDirectories();
    }
  }

  /**
   * Makes the table what the branch is: main's snapshots from the branch's earliest on, their
   * schemas and tags, give way to the branch's; files only the replaced snapshots used are deleted.
   */
  public void fastForward(String branch) throws IOException {
    if (!names().contains(branch)) {
      throw new IllegalArgumentException("Branch '" + branch + "' of " + table.fullName() + " does not exist; its branches are "
          + names());
    }
    SnapshotManager from = new SnapshotManager(io, dir(branch));
    Optional<Long> earliest = from.earliestId();
    if (earliest.isEmpty()) {
      throw new IllegalArgumentException("Cannot fast-forward " + table.fullName() + " to branch '" + branch
          + "': the branch has no snapshot yet");
    }
    long e = earliest.get();
    Snapshot first = from.snapshot(e);
    SnapshotManager main = table.snapshots();
    TagManager mainTags = table.tags();
    ReferencedFiles gone = ReferencedFiles.removable(table);
    long mainLatest = main.latestId().orElse(0L);
    if (mainLatest >= e) SnapshotWalk.addRange(main, e, mainLatest, gone);
    List<Tag> replacedTags = new ArrayList<>();
    for (Tag t : mainTags.all()) {
      if (t.snapshot.id >= e) {
        replacedTags.add(t);
        gone.addWhole(t.snapshot);
      }
    }
    // Main first loses what the branch replaces (newest first, so it reads as a rollback if
    // interrupted), then gets the branch's files; copies overwrite, so a rerun finishes the job.
    for (long id = mainLatest; id >= e; id--) io.delete(main.snapshotPath(id), false);
    for (long id : table.schemas().listIds()) {
      if (id >= first.schemaId) io.delete(table.schemas().schemaPath(id), false);
    }
    for (Tag t : replacedTags) mainTags.delete(t.name);
    copyAll(new Path(dir(branch), "schema"), table.schemas().schemaDir());
    copyAll(new Path(dir(branch), "tag"), mainTags.tagDir());
    copyAll(new Path(dir(branch), "snapshot"), main.snapshotDir());
    ReferencedFiles kept = ReferencedFiles.kept(table);
    SnapshotWalk.addBranches(io, table.dir(), null, kept);
    FileCleaner cleaner = new FileCleaner(table);
    cleaner.deleteUnused(gone, kept);
    cleaner.removeEmptyDirectories();
  }

  private void copyAll(Path from, Path to) throws IOException {
    io.mkdirs(to);
    for (FileStatus s : io.list(from)) {
      String n = s.getPath().getName();
      // The branch's EARLIEST hint is not main's (main keeps its older snapshots).
      if (!s.isFile() || FileIO.isTemporaryFile(n) || n.equals("EARLIEST")) continue;
      io.overwriteUtf8(new Path(to, s.getPath().getName()), io.readUtf8(s.getPath()));
    }
  }
}
