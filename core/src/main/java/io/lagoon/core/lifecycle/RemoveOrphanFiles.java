package io.lagoon.core.lifecycle;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.snapshot.SnapshotManager;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.InflightWrites;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Removes files of the table that nothing uses: data files in partition and bucket folders,
 * manifests and manifest lists, index files, and leftovers of interrupted publishes
 * ({@code .<name>.<uuid>.tmp}), when older than a cut-off. Used means named by any snapshot, tag
 * or long-lived changelog of any branch (data files are matched by name, as Paimon does: names
 * are unique). Nothing else under the table (schemas, snapshots, tags, statistics, unknown
 * folders) and nothing outside it is touched.
 *
 * <p>A write in flight is never hurt: files not older than the oldest live {@link InflightWrites}
 * marker are kept whatever the cut-off, and snapshots committed while this runs are read again
 * before anything is deleted.
 */
public final class RemoveOrphanFiles {
  private final FileStoreTable table;
  private final FileIO io;
  private long olderThanMillis;
  private boolean dryRun;

  public RemoveOrphanFiles(FileStoreTable table) {
    this.table = table;
    this.io = table.io();
    this.olderThanMillis = System.currentTimeMillis() - 24L * 60 * 60 * 1000;
  }

  /** Only files modified before this (Paimon's default: one day ago). */
  public RemoveOrphanFiles olderThan(long millis) {
    olderThanMillis = millis;
    return this;
  }

  /** Finds the files but deletes nothing. */
  public RemoveOrphanFiles dryRun(boolean d) {
    dryRun = d;
    return this;
  }

  /** @return the orphan files (deleted unless a dry run), sorted */
  public List<Path> run() throws IOException {
    long now = System.currentTimeMillis();
    long cutoff = Math.min(olderThanMillis, now);
    // Markers are listed after the cut-off is fixed: a write that starts later makes only files
    // newer than the cut-off.
    InflightWrites.Markers markers = InflightWrites.list(io, table.dir(), now);
    if (markers.oldest().isPresent()) cutoff = Math.min(cutoff, markers.oldest().getAsLong());

    Map<Path, Long> latestSeen = new HashMap<>();
    ReferencedFiles used = used(latestSeen);
    List<FileStatus> candidates = new ArrayList<>();
    collect(cutoff, candidates);
    // Commits that landed while the files were listed name files the listing may have met.
    addNewSnapshots(latestSeen, used);

    Set<String> dataNames = used.dataFileNames();
    List<Path> orphans = new ArrayList<>();
    for (FileStatus s : candidates) if (!isUsed(s.getPath(), used, dataNames)) orphans.add(s.getPath());
    orphans.sort(Path::compareTo);
    if (!dryRun) {
      for (Path p : orphans) io.delete(p, false);
      for (FileStatus dead : markers.dead()) io.delete(dead.getPath(), false);
    }
    return orphans;
  }

  /** Whether a listed file is used: a leftover temporary file never is; others by their folder's kind of file. */
  private boolean isUsed(Path p, ReferencedFiles used, Set<String> dataNames) {
    String name = p.getName();
    if (FileIO.isTemporaryFile(name)) return false;
    boolean inTable = p.getParent().getParent().equals(table.dir());
    String folder = p.getParent().getName();
    if (inTable && folder.equals("manifest")) {
      return used.manifests.contains(name) || used.manifestLists.contains(name) || used.indexManifests.contains(name);
    }
    if (inTable && folder.equals("index")) return used.indexFiles.contains(name);
    return dataNames.contains(name);
  }

  /** Everything every branch's snapshots, tags and changelogs use; the latest snapshot seen per branch. */
  private ReferencedFiles used(Map<Path, Long> latestSeen) throws IOException {
    ReferencedFiles used = ReferencedFiles.kept(table);
    for (Path root : roots()) {
      SnapshotManager sm = new SnapshotManager(io, root);
      latestSeen.put(root, sm.latestId().orElse(0L));
      SnapshotWalk.addAll(sm, used);
      SnapshotWalk.addTags(new io.lagoon.core.snapshot.TagManager(io, root), t -> true, used);
      // Paimon's long-lived changelogs (changelog/changelog-<id>) keep their files past expiry.
      ReferencedFiles changelogs = ReferencedFiles.removable(table);
      for (FileStatus s : io.list(new Path(root, "changelog"))) {
        if (!s.getPath().getName().startsWith("changelog-") || !s.isFile()) continue;
        try {
          changelogs.addDelta(Snapshot.fromJson(io.readUtf8(s.getPath())));
        } catch (java.io.FileNotFoundException expiredMeanwhile) {
          // gone with its files
        }
      }
      used.addAll(changelogs);
    }
    return used;
  }

  private void addNewSnapshots(Map<Path, Long> latestSeen, ReferencedFiles used) throws IOException {
    for (Path root : roots()) {
      SnapshotManager sm = new SnapshotManager(io, root);
      long seen = latestSeen.getOrDefault(root, 0L);
      long latest = sm.latestId().orElse(0L);
      if (latest > seen) SnapshotWalk.addRange(sm, seen + 1, latest, used);
      if (!latestSeen.containsKey(root)) SnapshotWalk.addTags(new io.lagoon.core.snapshot.TagManager(io, root), t -> true, used);
    }
  }

  private List<Path> roots() throws IOException {
    List<Path> roots = new ArrayList<>();
    roots.add(table.dir());
    roots.addAll(SnapshotWalk.branchDirs(io, table.dir()));
    return roots;
  }

  /** Files that could be orphans: in the data folders, {@code manifest/}, {@code index/}, and temporary files of metadata folders. */
  private void collect(long cutoff, List<FileStatus> out) throws IOException {
    Path dir = table.dir();
    addOld(io.list(new Path(dir, "manifest")), cutoff, out, false);
    addOld(io.list(new Path(dir, "index")), cutoff, out, false);
    walkData(dir, cutoff, out);
    for (Path root : roots()) {
      for (String meta : new String[] {"snapshot", "schema", "tag", "changelog"}) {
        addOld(io.list(new Path(root, meta)), cutoff, out, true);
      }
    }
  }

  /** Partition folders ({@code k=v}) down to bucket folders ({@code bucket-N}, {@code bucket-postpone}). */
  private void walkData(Path dir, long cutoff, List<FileStatus> out) throws IOException {
    for (FileStatus s : io.list(dir)) {
      if (!s.isDirectory()) continue;
      String n = s.getPath().getName();
      if (n.startsWith("bucket-")) addOld(io.list(s.getPath()), cutoff, out, false);
      else if (n.indexOf('=') > 0 && !n.startsWith(".") && !n.startsWith("_")) walkData(s.getPath(), cutoff, out);
    }
  }

  private static void addOld(List<FileStatus> files, long cutoff, List<FileStatus> out, boolean temporaryOnly) {
    for (FileStatus s : files) {
      if (!s.isFile() || s.getModificationTime() >= cutoff) continue;
      if (temporaryOnly && !FileIO.isTemporaryFile(s.getPath().getName())) continue;
      out.add(s);
    }
  }
}
