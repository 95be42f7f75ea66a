package io.lagoon.core.deletionvectors;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.commit.FileStoreCommit;
import io.lagoon.core.manifest.BucketId;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.ManifestFiles;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The index side of a deletion-vector compaction commit. Against the snapshot being committed on
 * top of, it checks every compacted bucket is as compaction saw it (same files above level 0,
 * same vector index files), else the commit is a conflict: a concurrent compaction moved records
 * this one looked up, and committing both would leave a key live twice. Then the buckets whose
 * vectors changed get their new index file in place of the old ones.
 */
public final class VectorIndexCommit implements FileStoreCommit.IndexChange {
  private final FileStoreTable table;
  private final List<BucketVectorChange> changes;

  public VectorIndexCommit(FileStoreTable table, List<BucketVectorChange> changes) {
    this.table = table;
    this.changes = List.copyOf(changes);
  }

  @Override
  public String apply(Snapshot latest, List<String> written) throws IOException {
    ManifestFiles mf = table.manifests();
    java.util.Collection<ManifestEntry> live = LiveFiles.read(mf, latest);
    List<IndexManifestEntry> current = latest.indexManifest == null ? List.of()
        : mf.readIndexManifest(latest.indexManifest);
    // Each bucket's files above level 0 and index files, gathered in one pass.
    Map<BucketId, Map<String, Integer>> upper = new HashMap<>();
    Map<BucketId, List<IndexManifestEntry>> index = new HashMap<>();
    for (BucketVectorChange c : changes) {
      upper.put(c.bucketId(), new TreeMap<>());
      index.put(c.bucketId(), new ArrayList<>());
    }
    for (ManifestEntry e : live) {
      Map<String, Integer> files = e.file.level > 0 ? upper.get(e.bucketId()) : null;
      if (files != null) files.put(e.file.fileName, e.file.level);
    }
    for (IndexManifestEntry e : current) {
      List<IndexManifestEntry> entries = index.get(e.bucketId());
      if (entries != null) entries.add(e);
    }
    for (BucketVectorChange c : changes) {
      if (!upper.get(c.bucketId()).equals(c.upperFiles)
          || !BucketVectorChange.indexFileNames(index.get(c.bucketId())).equals(c.baseIndexFiles)) {
        throw new CommitConflictException("Deletion-vector conflict on " + table.fullName() + ": a concurrent "
            + "commit changed " + c.bucketId() + " while it was being compacted; the compaction must be redone");
      }
    }
    java.util.Set<BucketId> replaced = new java.util.HashSet<>();
    for (BucketVectorChange c : changes) if (c.replaces) replaced.add(c.bucketId());
    if (replaced.isEmpty()) return latest.indexManifest;
    List<IndexManifestEntry> next = new ArrayList<>();
    for (IndexManifestEntry e : current) {
      if (!e.isDeletionVectors() || !replaced.contains(e.bucketId())) next.add(e);
    }
    for (BucketVectorChange c : changes) if (c.replaces && c.newEntry != null) next.add(c.newEntry);
    if (next.isEmpty()) return null;
    String manifest = mf.writeIndexManifest(next);
    written.add("manifest/" + manifest);
    return manifest;
  }
}
