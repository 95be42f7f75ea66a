package io.lagoon.core.commit;

import io.lagoon.core.manifest.ManifestEntry;
import java.util.List;

/** What one attempt of an operation commits: manifest entries (DELETEs first) and the index manifest. */
public final class PlannedChange {
  private static final PlannedChange NOTHING = new PlannedChange(List.of(), null, false);

  public final List<ManifestEntry> entries;
  /** The new snapshot's index manifest (unchanged from the base, a new one, or null for none). */
  public final String indexManifest;
  final boolean commit;

  private PlannedChange(List<ManifestEntry> entries, String indexManifest, boolean commit) {
    this.entries = List.copyOf(entries);
    this.indexManifest = indexManifest;
    this.commit = commit;
  }

  public static PlannedChange of(List<ManifestEntry> entries, String indexManifest) {
    return new PlannedChange(entries, indexManifest, true);
  }

  /** No snapshot is committed (an append of nothing, a DELETE that matched nothing). */
  public static PlannedChange nothing() {
    return NOTHING;
  }
}
