package io.lagoon.spark.write;

import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.scan.ScanPlanner;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.Path;

/** Removes the data files of a write that did not commit, so they do not linger unreferenced. */
final class WrittenFiles {
  private WrittenFiles() {}

  static void delete(FileStoreTable table, List<ManifestEntry> files) {
    ScanPlanner paths = new ScanPlanner(table);
    for (ManifestEntry e : files) {
      try {
        table.io().delete(new Path(table.dir(), paths.bucketPath(e.partition, e.bucket) + "/" + e.file.fileName), false);
      } catch (IOException | RuntimeException ignore) {
        // an unreferenced file at worst
      }
    }
  }

  /**
   * Deletes those of {@code files} that the latest snapshot does not reference. A commit that
   * publishes more than one snapshot can fail after the first landed; its files must stay. When
   * the latest snapshot cannot be read, nothing is deleted: an orphan file is harmless, a missing
   * one is not.
   */
  static void deleteUnreferenced(FileStoreTable table, List<ManifestEntry> files) {
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
    for (ManifestEntry e : files) if (!live.contains(e.id())) orphans.add(e);
    delete(table, orphans);
  }
}
