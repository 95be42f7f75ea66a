package io.lagoon.core.scan;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.ManifestFileMeta;
import io.lagoon.core.manifest.SimpleStats;
import io.lagoon.core.mergetree.KeyComparator;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The live files of the snapshot a write started from, by partition and bucket: they seed each
 * bucket's sequence numbers and the runs write-triggered compaction works on. Read lazily, per
 * partition the task writes: only manifests whose partition stats may hold that partition are
 * read (each at most once), so a write into a few partitions of a large table reads little.
 */
public final class BaseFiles {
  private final FileStoreTable table;
  private final long snapshotId;
  private final List<PaimonType> partitionTypes = new ArrayList<>();
  private List<ManifestFileMeta> manifests;
  private final Set<String> read = new HashSet<>();
  /** Entries read so far, by partition, then by the position of their manifest in the snapshot. */
  private final Map<String, TreeMap<Integer, List<ManifestEntry>>> entries = new HashMap<>();
  /** Live files of the partitions asked for, by bucket. */
  private final Map<String, Map<Integer, List<ManifestEntry>>> live = new HashMap<>();
  private List<IndexManifestEntry> index;

  public BaseFiles(FileStoreTable table, long snapshotId) {
    this.table = table;
    this.snapshotId = snapshotId;
    for (DataField f : table.schema().partitionFields()) partitionTypes.add(f.type());
  }

  public List<ManifestEntry> of(byte[] partition, int bucket) throws IOException {
    if (snapshotId < 0) return List.of();
    String key = Arrays.toString(partition);
    Map<Integer, List<ManifestEntry>> buckets = live.get(key);
    if (buckets == null) {
      buckets = load(partition, key);
      live.put(key, buckets);
    }
    return buckets.getOrDefault(bucket, List.of());
  }

  /**
   * The bucket count the partition's bucketed files record ({@code totalBuckets}), or -1 when it
   * has none (a postponed-bucket table's partition whose rows all still wait in bucket -2).
   */
  public int bucketCount(byte[] partition) throws IOException {
    if (snapshotId < 0) return -1;
    of(partition, 0);
    for (Map.Entry<Integer, List<ManifestEntry>> e : live.get(Arrays.toString(partition)).entrySet()) {
      if (e.getKey() < 0) continue;
      for (ManifestEntry f : e.getValue()) if (f.totalBuckets > 0) return f.totalBuckets;
    }
    return -1;
  }

  /**
   * The sequence number a writer of the bucket starts at: after the highest of its live files.
   * Their bucket count must be the table's: changing it needs an overwrite of the partition
   * (dynamic buckets, {@code totalBuckets < 0}, have none).
   */
  public long nextSequence(byte[] partition, int bucket, int totalBuckets) throws IOException {
    long max = -1;
    for (ManifestEntry e : of(partition, bucket)) {
      if (totalBuckets > 0 && e.totalBuckets != totalBuckets) {
        throw new IllegalStateException("Partition " + table.paths().partitionPath(partition) + " of " + table.fullName()
            + " was written with " + e.totalBuckets + " buckets, the table now says 'bucket'='" + totalBuckets
            + "'; changing the bucket count needs INSERT OVERWRITE of the partition");
      }
      max = Math.max(max, e.file.maxSequenceNumber);
    }
    return max + 1;
  }

  /** The base snapshot's index manifest entries (read once; empty without a base snapshot). */
  public List<IndexManifestEntry> vectorIndex() throws IOException {
    if (snapshotId < 0) return List.of();
    if (index == null) {
      String manifest = table.snapshots().snapshot(snapshotId).indexManifest;
      index = manifest == null ? List.of() : table.manifests().readIndexManifest(manifest);
    }
    return index;
  }

  /** Manifests read so far (for tests). */
  public int manifestsRead() {
    return read.size();
  }

  private Map<Integer, List<ManifestEntry>> load(byte[] partition, String key) throws IOException {
    if (manifests == null) manifests = LiveFiles.manifests(table.manifests(), table.snapshots().snapshot(snapshotId));
    InternalRow wanted = partitionTypes.isEmpty() ? null : BinaryRows.deserialize(partition, partitionTypes);
    for (int i = 0; i < manifests.size(); i++) {
      ManifestFileMeta m = manifests.get(i);
      if (read.contains(m.fileName) || !mayContain(m.partitionStats, wanted)) continue;
      read.add(m.fileName);
      for (ManifestEntry e : table.manifests().readManifest(m)) {
        entries.computeIfAbsent(Arrays.toString(e.partition), k -> new TreeMap<>())
            .computeIfAbsent(i, k -> new ArrayList<>()).add(e);
      }
    }
    // Manifest order matters (a file's ADD comes before its DELETE); manifests may have been read
    // for other partitions first, hence the order by position.
    List<ManifestEntry> ordered = new ArrayList<>();
    TreeMap<Integer, List<ManifestEntry>> mine = entries.remove(key);
    if (mine != null) for (List<ManifestEntry> l : mine.values()) ordered.addAll(l);
    Map<Integer, List<ManifestEntry>> out = new HashMap<>();
    for (ManifestEntry e : LiveFiles.merge(ordered)) out.computeIfAbsent(e.bucket, b -> new ArrayList<>()).add(e);
    return out;
  }

  /** Whether a manifest's partition stats admit the partition; true when they cannot tell. */
  private boolean mayContain(SimpleStats stats, InternalRow wanted) {
    if (wanted == null || stats == null) return true;
    byte[] minBytes = stats.minValues();
    byte[] maxBytes = stats.maxValues();
    int n = partitionTypes.size();
    if (minBytes == null || maxBytes == null || BinaryRows.arity(minBytes) != n || BinaryRows.arity(maxBytes) != n) {
      return true;
    }
    InternalRow min = BinaryRows.deserialize(minBytes, partitionTypes);
    InternalRow max = BinaryRows.deserialize(maxBytes, partitionTypes);
    Long[] nulls = stats.nullCounts();
    for (int i = 0; i < n; i++) {
      if (wanted.isNullAt(i)) {
        if (nulls != null && i < nulls.length && nulls[i] != null && nulls[i] == 0) return false;
        continue;
      }
      if (min.isNullAt(i) || max.isNullAt(i)) continue;
      PaimonType t = partitionTypes.get(i);
      if (KeyComparator.compareField(wanted, min, i, t) < 0 || KeyComparator.compareField(wanted, max, i, t) > 0) {
        return false;
      }
    }
    return true;
  }
}
