package io.lagoon.core.mergetree.write;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.lagoon.core.deletionvectors.BucketVectorChange;
import io.lagoon.core.manifest.BucketId;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.operation.RewriteFiles;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What one task wrote into a primary-key table, for the driver to commit. */
// Java serialization also where Spark serializes with Kryo, which cannot rebuild records, immutable
// lists or transient state.
@DefaultSerializer(JavaSerializer.class)
public final class KeyValueWriteResult implements Serializable {
  /** ADD entries of the new level-0 files. */
  public final List<ManifestEntry> newFiles;
  /** Live entries a write-triggered compaction replaced (committed as DELETE). */
  public final List<ManifestEntry> compactBefore;
  /** ADD entries of the compaction outputs. */
  public final List<ManifestEntry> compactAfter;
  /** Deletion-vector mode: per compacted bucket, what its compaction assumed and changed. */
  public final List<BucketVectorChange> vectorChanges;
  /** Dynamic buckets: hashes of the keys the task gave a bucket for the first time. */
  public final Map<BucketId, int[]> freshHashes;
  /** The snapshot whose HASH index the buckets were assigned on (-1: none, or fixed buckets). */
  public final long assignedOn;
  /** ADD entries of the changelog files ({@code changelog-producer}={@code input}), else empty. */
  public final List<ManifestEntry> changelogFiles;
  /**
   * The partitions (serialized) of the rows the task was given: a dynamic overwrite replaces
   * these, not the ones that only got retractions of keys that moved away (cross-partition tables).
   */
  public final List<byte[]> rowPartitions;

  public KeyValueWriteResult(List<ManifestEntry> newFiles, List<ManifestEntry> compactBefore,
                             List<ManifestEntry> compactAfter) {
    this(newFiles, compactBefore, compactAfter, List.of());
  }

  public KeyValueWriteResult(List<ManifestEntry> newFiles, List<ManifestEntry> compactBefore,
                             List<ManifestEntry> compactAfter, List<BucketVectorChange> vectorChanges) {
    this(newFiles, compactBefore, compactAfter, vectorChanges, Map.of(), -1);
  }

  public KeyValueWriteResult(List<ManifestEntry> newFiles, List<ManifestEntry> compactBefore,
                             List<ManifestEntry> compactAfter, List<BucketVectorChange> vectorChanges,
                             Map<BucketId, int[]> freshHashes, long assignedOn) {
    this(newFiles, compactBefore, compactAfter, vectorChanges, freshHashes, assignedOn, List.of(), null);
  }

  private KeyValueWriteResult(List<ManifestEntry> newFiles, List<ManifestEntry> compactBefore,
                              List<ManifestEntry> compactAfter, List<BucketVectorChange> vectorChanges,
                              Map<BucketId, int[]> freshHashes, long assignedOn, List<ManifestEntry> changelogFiles,
                              List<byte[]> rowPartitions) {
    this.changelogFiles = List.copyOf(changelogFiles);
    this.rowPartitions = rowPartitions != null ? List.copyOf(rowPartitions) : partitionsOf(newFiles);
    this.freshHashes = new LinkedHashMap<>(freshHashes);
    this.assignedOn = assignedOn;
    this.newFiles = List.copyOf(newFiles);
    this.compactBefore = List.copyOf(compactBefore);
    this.compactAfter = List.copyOf(compactAfter);
    this.vectorChanges = List.copyOf(vectorChanges);
  }

  /** This result with the changelog files the task wrote beside its data files. */
  public KeyValueWriteResult withChangelog(List<ManifestEntry> changelog) {
    return new KeyValueWriteResult(newFiles, compactBefore, compactAfter, vectorChanges, freshHashes, assignedOn,
        changelog, rowPartitions);
  }

  /** This result with the partitions of the rows the task was given. */
  public KeyValueWriteResult withRowPartitions(List<byte[]> partitions) {
    return new KeyValueWriteResult(newFiles, compactBefore, compactAfter, vectorChanges, freshHashes, assignedOn,
        changelogFiles, partitions);
  }

  private static List<byte[]> partitionsOf(List<ManifestEntry> files) {
    Map<String, byte[]> out = new LinkedHashMap<>();
    for (ManifestEntry e : files) out.putIfAbsent(java.util.Arrays.toString(e.partition), e.partition);
    return new ArrayList<>(out.values());
  }

  /**
   * The files this task created (changelog files included): its new files and what its compaction wrote, never a file the
   * compaction only moved to another level (that one is committed already; deleting it after a
   * failed commit would break every snapshot that still references it).
   */
  public List<ManifestEntry> createdFiles() {
    List<ManifestEntry> out = new ArrayList<>(newFiles);
    out.addAll(changelogFiles);
    out.addAll(RewriteFiles.written(compactBefore, compactAfter));
    return out;
  }
}
