package io.lagoon.core.deletionvectors;

import io.lagoon.core.manifest.BucketId;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a deletion-vector compaction of one bucket assumed and changed, for the commit to check and
 * apply: the bucket's files above level 0 and its vector index files in the snapshot it started
 * from (the lookups it made are right only while both are unchanged), and, when the vectors
 * changed, the index file replacing the old ones.
 */
public final class BucketVectorChange implements Serializable {
  public final byte[] partition;
  public final int bucket;
  /** File name to level of the bucket's files above level 0 that compaction saw. */
  public final Map<String, Integer> upperFiles;
  /** The bucket's deletion-vector index files compaction started from. */
  public final List<String> baseIndexFiles;
  /** Whether the vectors changed, so {@link #newEntry} replaces the base index files. */
  public final boolean replaces;
  /** The new index file's entry, or null (no change, or no vector left). */
  public final IndexManifestEntry newEntry;

  public BucketVectorChange(byte[] partition, int bucket, Map<String, Integer> upperFiles, List<String> baseIndexFiles,
                            boolean replaces, IndexManifestEntry newEntry) {
    this.partition = partition;
    this.bucket = bucket;
    this.upperFiles = new TreeMap<>(upperFiles);
    this.baseIndexFiles = List.copyOf(baseIndexFiles);
    this.replaces = replaces;
    this.newEntry = newEntry;
  }

  /** The bucket's files above level 0, by name, among the given live entries of a snapshot. */
  public static Map<String, Integer> upperFiles(List<ManifestEntry> bucketFiles) {
    Map<String, Integer> out = new TreeMap<>();
    for (ManifestEntry e : bucketFiles) if (e.file.level > 0) out.put(e.file.fileName, e.file.level);
    return out;
  }

  public static List<String> indexFileNames(List<IndexManifestEntry> entries) {
    List<String> out = new ArrayList<>();
    for (IndexManifestEntry e : entries) if (e.isDeletionVectors()) out.add(e.fileName);
    out.sort(null);
    return out;
  }

  public BucketId bucketId() {
    return new BucketId(partition, bucket);
  }
}
