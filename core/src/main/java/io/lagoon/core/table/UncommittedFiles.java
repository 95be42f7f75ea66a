package io.lagoon.core.table;

import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.ManifestFileMeta;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.Path;

/**
 * Removes files a write or an attempt created but did not commit, in one place. Deleting is best
 * effort: a file left behind is an orphan that orphan removal takes later, never a problem for
 * readers. When it is not certain that nothing committed a file, only files no snapshot since the
 * attempt began has added are deleted.
 */
public final class UncommittedFiles {
  private UncommittedFiles() {}

  /** Deletes one file, quietly. */
  public static void delete(FileStoreTable table, Path file) {
    try {
      table.io().delete(file, false);
    } catch (IOException | RuntimeException ignore) {
      // an unreferenced file at worst
    }
  }

  /** Deletes the data files of entries that were certainly never committed, and the files beside them (indexes). */
  public static void deleteData(FileStoreTable table, Collection<ManifestEntry> entries) {
    DataFilePaths paths = table.paths();
    for (ManifestEntry e : entries) deleteInBucket(table, paths.dataFile(e).getParent(), java.util.List.of(e.file));
  }

  /** Deletes data files a writer wrote into one bucket folder and never committed, with the files beside them. */
  public static void deleteInBucket(FileStoreTable table, Path bucketDir, Collection<io.lagoon.core.manifest.DataFileMeta> files) {
    for (io.lagoon.core.manifest.DataFileMeta f : files) {
      delete(table, new Path(bucketDir, f.fileName));
      for (String extra : f.extraFiles) delete(table, new Path(bucketDir, extra));
    }
  }

  /** Deletes index files (by name, under {@code index/}) that were certainly never committed. */
  public static void deleteIndex(FileStoreTable table, Collection<String> names) {
    DataFilePaths paths = table.paths();
    for (String name : names) delete(table, paths.indexFile(name));
  }

  /**
   * Deletes those data files of {@code entries} that no snapshot published after
   * {@code sinceSnapshotId} has added, and the latest does not reference: a statement that
   * publishes more than one snapshot can fail after the first landed, and its files must stay,
   * even when a later compaction replaced them (a reader may still be reading that snapshot).
   * When a snapshot cannot be read, nothing is deleted.
   */
  public static void deleteUnreferenced(FileStoreTable table, Collection<ManifestEntry> entries, long sinceSnapshotId) {
    if (entries.isEmpty()) return;
    Set<ManifestEntry.FileId> kept = new HashSet<>();
    try {
      Optional<Snapshot> latest = table.snapshots().latest();
      if (latest.isPresent()) {
        for (ManifestEntry e : LiveFiles.read(table.manifests(), latest.get())) kept.add(e.id());
        for (long id = Math.max(sinceSnapshotId, 0) + 1; id <= latest.get().id; id++) {
          Snapshot s = id == latest.get().id ? latest.get() : table.snapshots().snapshot(id);
          // Changelog files are referenced only by the changelog list of the snapshot that added them.
          if (id < latest.get().id) addAdded(table, s.deltaManifestList, kept);
          addAdded(table, s.changelogManifestList, kept);
        }
      }
    } catch (IOException | RuntimeException e) {
      return;
    }
    List<ManifestEntry> orphans = new ArrayList<>();
    for (ManifestEntry e : entries) if (!kept.contains(e.id())) orphans.add(e);
    deleteData(table, orphans);
  }

  private static void addAdded(FileStoreTable table, String manifestList, Set<ManifestEntry.FileId> kept)
      throws IOException {
    if (manifestList == null) return;
    for (ManifestFileMeta m : table.manifests().readManifestList(manifestList)) {
      for (ManifestEntry e : table.manifests().readManifest(m)) if (e.kind == FileKind.ADD) kept.add(e.id());
    }
  }
}
