package io.lagoon.core.mergetree;

import io.lagoon.core.manifest.ManifestEntry;
import java.util.List;

/** TEMPORARY STUB of the core writer's result type so the Spark side compiles. */
public final class KeyValueWriteResult implements java.io.Serializable {
  public final List<ManifestEntry> newFiles;
  public final List<ManifestEntry> compactBefore;
  public final List<ManifestEntry> compactAfter;

  public KeyValueWriteResult(List<ManifestEntry> newFiles, List<ManifestEntry> compactBefore,
                             List<ManifestEntry> compactAfter) {
    this.newFiles = newFiles;
    this.compactBefore = compactBefore;
    this.compactAfter = compactAfter;
  }
}
