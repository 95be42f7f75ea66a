package io.lagoon.core.commit;

import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.ManifestFileMeta;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The snapshot an attempt plans on, with its live files and index entries read at most once and
 * only when an operation asks for them (an append needs neither).
 */
public final class CommitBase {
  private final FileStoreTable table;
  private final Snapshot snapshot;
  private List<ManifestFileMeta> manifests;
  private Collection<ManifestEntry> live;
  private List<IndexManifestEntry> index;

  public CommitBase(FileStoreTable table, Snapshot snapshot) {
    this.table = table;
    this.snapshot = snapshot;
  }

  public FileStoreTable table() {
    return table;
  }

  /** Empty for a table without snapshots. */
  public Optional<Snapshot> snapshot() {
    return Optional.ofNullable(snapshot);
  }

  public String indexManifest() {
    return snapshot == null ? null : snapshot.indexManifest;
  }

  /** Every manifest of the snapshot, in replay order. */
  public List<ManifestFileMeta> manifests() throws IOException {
    if (manifests == null) manifests = snapshot == null ? List.of() : LiveFiles.manifests(table.manifests(), snapshot);
    return manifests;
  }

  public Collection<ManifestEntry> live() throws IOException {
    if (live == null) {
      // From the manifests already listed: the manifest lists are read once per attempt.
      List<ManifestEntry> all = new java.util.ArrayList<>();
      for (ManifestFileMeta m : manifests()) all.addAll(table.manifests().readManifest(m));
      live = LiveFiles.merge(all);
    }
    return live;
  }

  /** The snapshot's index files (deletion vectors, hash indexes). */
  public List<IndexManifestEntry> index() throws IOException {
    if (index == null) {
      index = snapshot == null || snapshot.indexManifest == null ? List.of()
          : table.manifests().readIndexManifest(snapshot.indexManifest);
    }
    return index;
  }
}
