package io.lagoon.core.deletionvectors;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.commit.FileStoreCommit;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.ManifestFiles;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
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
    for (BucketVectorChange c : changes) {
      Map<String, Integer> upper = new TreeMap<>();
      for (ManifestEntry e : live) {
        if (e.file.level > 0 && c.sameBucket(e.partition, e.bucket)) upper.put(e.file.fileName, e.file.level);
      }
      List<IndexManifestEntry> bucketIndex = new ArrayList<>();
      for (IndexManifestEntry e : current) if (c.sameBucket(e.partition, e.bucket)) bucketIndex.add(e);
      if (!upper.equals(c.upperFiles) || !BucketVectorChange.indexFileNames(bucketIndex).equals(c.baseIndexFiles)) {
        throw new CommitConflictException("Deletion-vector conflict on " + table.fullName() + ": a concurrent "
            + "commit changed " + c.bucketName() + " while it was being compacted; the compaction must be redone");
      }
    }
    List<IndexManifestEntry> next = new ArrayList<>();
    boolean changed = false;
    for (IndexManifestEntry e : current) {
      boolean replaced = false;
      for (BucketVectorChange c : changes) {
        if (c.replaces && e.isDeletionVectors() && c.sameBucket(e.partition, e.bucket)) replaced = true;
      }
      if (replaced) changed = true;
      else next.add(e);
    }
    for (BucketVectorChange c : changes) {
      if (c.replaces) changed = true;
      if (c.replaces && c.newEntry != null) next.add(c.newEntry);
    }
    if (!changed) return latest.indexManifest;
    if (next.isEmpty()) return null;
    String manifest = mf.writeIndexManifest(next);
    written.add("manifest/" + manifest);
    return manifest;
  }
}
