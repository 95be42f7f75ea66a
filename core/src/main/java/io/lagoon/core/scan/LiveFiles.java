package io.lagoon.core.scan;

import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.ManifestFileMeta;
import io.lagoon.core.manifest.ManifestFiles;
import io.lagoon.core.snapshot.Snapshot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** Replays a snapshot's manifests (base, then delta) into the set of live data files. */
public final class LiveFiles {
  private LiveFiles() {}

  /** All manifests of a snapshot in replay order. */
  public static List<ManifestFileMeta> manifests(ManifestFiles mf, Snapshot s) throws IOException {
    List<ManifestFileMeta> out = new ArrayList<>();
    if (s.baseManifestList != null) out.addAll(mf.readManifestList(s.baseManifestList));
    if (s.deltaManifestList != null) out.addAll(mf.readManifestList(s.deltaManifestList));
    return out;
  }

  /** Merges entries in order: a DELETE cancels the earlier ADD of the same file. */
  public static Collection<ManifestEntry> merge(List<ManifestEntry> entries) {
    Map<ManifestEntry.FileId, ManifestEntry> live = new LinkedHashMap<>();
    for (ManifestEntry e : entries) {
      if (e.kind == FileKind.ADD) live.put(e.id(), e);
      else live.remove(e.id());
    }
    return live.values();
  }

  public static Collection<ManifestEntry> read(ManifestFiles mf, Snapshot s) throws IOException {
    return read(mf, s, m -> true);
  }

  /** Live entries, reading only the manifests the filter keeps (a pruned manifest can hold no live match). */
  public static Collection<ManifestEntry> read(ManifestFiles mf, Snapshot s, Predicate<ManifestFileMeta> keep)
      throws IOException {
    List<ManifestEntry> all = new ArrayList<>();
    for (ManifestFileMeta m : manifests(mf, s)) {
      if (keep.test(m)) all.addAll(mf.readManifest(m));
    }
    return merge(all);
  }
}
