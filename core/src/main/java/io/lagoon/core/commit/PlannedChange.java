package io.lagoon.core.commit;

import io.lagoon.core.manifest.ManifestEntry;
import java.util.List;

/** What one attempt of an operation commits: manifest entries (DELETEs first) and the index manifest. */
public final class PlannedChange {
  private static final PlannedChange NOTHING = new PlannedChange(List.of(), null, false, List.of());

  public final List<ManifestEntry> entries;
  /** ADD entries of changelog files, listed in the snapshot's changelog manifest list; may be empty. */
  public final List<ManifestEntry> changelog;
  /** The new snapshot's index manifest (unchanged from the base, a new one, or null for none). */
  public final String indexManifest;
  final boolean commit;

  private PlannedChange(List<ManifestEntry> entries, String indexManifest, boolean commit,
                        List<ManifestEntry> changelog) {
    this.entries = List.copyOf(entries);
    this.changelog = List.copyOf(changelog);
    this.indexManifest = indexManifest;
    this.commit = commit;
  }

  public static PlannedChange of(List<ManifestEntry> entries, String indexManifest) {
    return new PlannedChange(entries, indexManifest, true, List.of());
  }

  /** This change, with changelog files committed beside it. */
  public PlannedChange withChangelog(List<ManifestEntry> files) {
    return new PlannedChange(entries, indexManifest, commit, files);
  }

  /** No snapshot is committed (an append of nothing, a DELETE that matched nothing). */
  public static PlannedChange nothing() {
    return NOTHING;
  }
}
