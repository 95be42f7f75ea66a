package io.lagoon.core.mergetree.write;

import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The live files of the snapshot a write started from, by partition and bucket: they seed each
 * bucket's sequence numbers and the runs write-triggered compaction works on. Read once per task,
 * on first use, and only when the write has a base snapshot.
 */
final class BaseFiles {
  private final FileStoreTable table;
  private final long snapshotId;
  private Map<String, List<ManifestEntry>> byBucket;

  BaseFiles(FileStoreTable table, long snapshotId) {
    this.table = table;
    this.snapshotId = snapshotId;
  }

  List<ManifestEntry> of(byte[] partition, int bucket) throws IOException {
    if (snapshotId < 0) return List.of();
    if (byBucket == null) {
      byBucket = new HashMap<>();
      Snapshot s = table.snapshots().snapshot(snapshotId);
      for (ManifestEntry e : LiveFiles.read(table.manifests(), s)) {
        byBucket.computeIfAbsent(key(e.partition, e.bucket), k -> new ArrayList<>()).add(e);
      }
    }
    return byBucket.getOrDefault(key(partition, bucket), List.of());
  }

  private static String key(byte[] partition, int bucket) {
    return Arrays.toString(partition) + "/" + bucket;
  }
}
