package io.lagoon.core.dynamicbucket;

import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The HASH index of one snapshot: its index-manifest entries are read once where the write is
 * planned (one per bucket, few), the files themselves by the tasks that need a partition.
 */
public final class SnapshotHashIndex implements HashIndexSource, Serializable {
  private final FileStoreTable table;
  private final List<IndexManifestEntry> entries;

  private SnapshotHashIndex(FileStoreTable table, List<IndexManifestEntry> entries) {
    this.table = table;
    this.entries = entries;
  }

  /** @param snapshotId the write's base snapshot, -1 for none (every key is new) */
  public static SnapshotHashIndex of(FileStoreTable table, long snapshotId) throws IOException {
    return new SnapshotHashIndex(table, entries(table, snapshotId));
  }

  /** The HASH entries of a snapshot (-1: none). */
  static List<IndexManifestEntry> entries(FileStoreTable table, long snapshotId) throws IOException {
    List<IndexManifestEntry> out = new ArrayList<>();
    if (snapshotId < 0) return out;
    Snapshot s = table.snapshots().snapshot(snapshotId);
    if (s.indexManifest == null) return out;
    for (IndexManifestEntry e : table.manifests().readIndexManifest(s.indexManifest)) {
      if (HashIndexFile.INDEX_TYPE.equals(e.indexType)) out.add(e);
    }
    return out;
  }

  @Override
  public void forEach(byte[] partition, Visitor v) throws IOException {
    for (IndexManifestEntry e : entries) {
      if (!Arrays.equals(e.partition, partition)) continue;
      int[] hashes = HashIndexFile.read(table.io(), table.paths().indexFile(e.fileName));
      if (hashes.length != e.rowCount) {
        throw new IOException("Corrupt HASH index file " + e.fileName + " of " + table.fullName() + ": "
            + hashes.length + " key hashes, its index manifest entry says " + e.rowCount);
      }
      for (int h : hashes) v.accept(e.bucket, h);
    }
  }
}
