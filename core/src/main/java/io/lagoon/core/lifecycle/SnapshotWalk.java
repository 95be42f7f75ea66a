package io.lagoon.core.lifecycle;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.snapshot.SnapshotManager;
import io.lagoon.core.snapshot.Tag;
import io.lagoon.core.snapshot.TagManager;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/** Adds ranges of snapshots, tags and whole branches to a {@link ReferencedFiles}. */
final class SnapshotWalk {
  private SnapshotWalk() {}

  /**
   * Every snapshot in {@code [from, to]}: the first one found whole, the later ones as deltas (which
   * covers every data file any of them uses). A snapshot that vanishes meanwhile (another expiry)
   * is skipped; the next one found is then taken whole.
   */
  static void addRange(SnapshotManager sm, long from, long to, ReferencedFiles refs) throws IOException {
    boolean whole = true;
    for (long id = from; id <= to; id++) {
      Snapshot s;
      try {
        s = sm.snapshot(id);
      } catch (SnapshotManager.SnapshotNotFoundException gone) {
        continue;
      }
      try {
        if (whole) refs.addWhole(s);
        else refs.addDelta(s);
        whole = false;
      } catch (FileNotFoundException e) {
        // Metadata of a snapshot that another expiry removed meanwhile; of a live one, an error.
        if (sm.exists(id)) throw e;
      }
    }
  }

  /** Every snapshot of a snapshot folder (a table's or a branch's). */
  static void addAll(SnapshotManager sm, ReferencedFiles refs) throws IOException {
    List<Long> ids = sm.listIds();
    if (!ids.isEmpty()) addRange(sm, ids.get(0), ids.get(ids.size() - 1), refs);
  }

  /** The tags {@code which} selects, each whole. */
  static void addTags(TagManager tags, Predicate<Tag> which, ReferencedFiles refs) throws IOException {
    for (Tag t : tags.all()) if (which.test(t)) refs.addWhole(t.snapshot);
  }

  /** Folders of the table's branches ({@code branch/branch-<name>}), which share its data and manifests. */
  static List<Path> branchDirs(FileIO io, Path tableDir) throws IOException {
    List<Path> out = new ArrayList<>();
    for (FileStatus s : io.list(new Path(tableDir, "branch"))) {
      if (s.isDirectory() && s.getPath().getName().startsWith("branch-")) out.add(s.getPath());
    }
    return out;
  }

  /** Everything every branch uses (their snapshots and tags): shared files stay while a branch needs them. */
  static void addBranches(FileIO io, Path tableDir, Path except, ReferencedFiles refs) throws IOException {
    List<Path> roots = new ArrayList<>(branchDirs(io, tableDir));
    roots.add(tableDir);
    for (Path root : roots) {
      if (root.equals(except)) continue;
      addAll(new SnapshotManager(io, root), refs);
      addTags(new TagManager(io, root), t -> true, refs);
    }
  }
}
