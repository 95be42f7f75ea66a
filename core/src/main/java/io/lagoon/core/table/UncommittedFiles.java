package io.lagoon.core.table;

import io.lagoon.core.manifest.ManifestEntry;
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
 * readers. When it is not certain that nothing committed a file, only files the latest snapshot
 * does not reference are deleted.
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

  /** Deletes the data files of entries that were certainly never committed. */
  public static void deleteData(FileStoreTable table, Collection<ManifestEntry> entries) {
    DataFilePaths paths = table.paths();
    for (ManifestEntry e : entries) delete(table, paths.dataFile(e));
  }

  /** Deletes index files (by name, under {@code index/}) that were certainly never committed. */
  public static void deleteIndex(FileStoreTable table, Collection<String> names) {
    DataFilePaths paths = table.paths();
    for (String name : names) delete(table, paths.indexFile(name));
  }

  /**
   * Deletes those data files of {@code entries} the latest snapshot does not reference: a statement
   * that publishes more than one snapshot can fail after the first landed, and its files must stay.
   * When the latest snapshot cannot be read, nothing is deleted.
   */
  public static void deleteUnreferenced(FileStoreTable table, Collection<ManifestEntry> entries) {
    Set<ManifestEntry.FileId> live = new HashSet<>();
    try {
      Optional<Snapshot> latest = table.snapshots().latest();
      if (latest.isPresent()) {
        for (ManifestEntry e : LiveFiles.read(table.manifests(), latest.get())) live.add(e.id());
      }
    } catch (IOException | RuntimeException e) {
      return;
    }
    List<ManifestEntry> orphans = new ArrayList<>();
    for (ManifestEntry e : entries) if (!live.contains(e.id())) orphans.add(e);
    deleteData(table, orphans);
  }
}
