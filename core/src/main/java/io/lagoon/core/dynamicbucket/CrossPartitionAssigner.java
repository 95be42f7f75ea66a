package io.lagoon.core.dynamicbucket;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.deletionvectors.BucketVectors;
import io.lagoon.core.deletionvectors.DeletionVector;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.CloseableIterator;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.mergetree.engine.MergeOptions;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.PaimonType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * One task's bucket assignment for a cross-partition table (dynamic buckets, a primary key without
 * the partition columns; Paimon's global-index mode): a key lives in one (partition, bucket) of the
 * whole table. Spark sends all keys of one assigner ({@code hash % n}) to one task, which learns
 * where each of them is live from the base snapshot's files (Paimon keeps no index for this mode;
 * it reads the table's keys the same way when a job starts). A key written into the partition it
 * lives in stays in its bucket. One written into another partition is handled as Paimon's merge
 * engines define it ({@link Existing}): on {@code deduplicate} it is retracted where it lived and
 * gets a bucket of its new partition as a new key would ({@link PartitionBucketIndex}).
 */
public final class CrossPartitionAssigner {
  /** What a record does to its key when the key lives in another partition, by merge engine (Paimon's rule). */
  public enum Existing {
    /** {@code deduplicate}: the key moves; it is retracted where it lived. */
    MOVE,
    /**
     * {@code partial-update}, {@code aggregation}: the record is merged where the key lives, its
     * partition columns set to that partition's values (the new ones are ignored).
     */
    USE_OLD,
    /** {@code first-row}: the key keeps its first row; the record is dropped. */
    SKIP_NEW;

    public static Existing of(TableSchema schema) {
      switch (new MergeOptions(schema.options()).engine()) {
        case DEDUPLICATE:
          return MOVE;
        case FIRST_ROW:
          return SKIP_NEW;
        default:
          return USE_OLD;
      }
    }
  }

  /** Where to write a record, and where the key must first be retracted (null: nowhere). */
  public static final class Decision {
    /** -1: nothing to write (a retraction of a key that is not live, or a first-row duplicate). */
    public final int bucket;
    /** The partition to write into when it is not the record's own ({@link Existing#USE_OLD}); else null. */
    public final byte[] partition;
    public final byte[] retractPartition;
    public final int retractBucket;

    Decision(int bucket, byte[] retractPartition, int retractBucket) {
      this(bucket, null, retractPartition, retractBucket);
    }

    Decision(int bucket, byte[] partition, byte[] retractPartition, int retractBucket) {
      this.bucket = bucket;
      this.partition = partition;
      this.retractPartition = retractPartition;
      this.retractBucket = retractBucket;
    }
  }

  private final FileStoreTable table;
  private final long baseSnapshotId;
  private final KeyValueSource keys;
  private final int numAssigners;
  private final long targetRowNum;
  private final int maxBuckets;
  private final Existing existing;
  private final List<PaimonType> keyTypes = new ArrayList<>();
  /** Per assigner met so far: where its keys live, and its view of each partition's buckets. */
  private final Map<Integer, KeyLocations> locations = new HashMap<>();
  private final Map<Integer, Map<ByteBuffer, PartitionBucketIndex>> partitions = new HashMap<>();

  /** Partitions an overwrite replaces, whose keys count as gone; null for none. */
  private final Predicate<InternalRow> replaced;

  CrossPartitionAssigner(FileStoreTable table, long baseSnapshotId, KeyValueSource keys, int numAssigners,
                         long targetRowNum, int maxBuckets, Predicate<InternalRow> replaced) {
    this.replaced = replaced;
    this.table = table;
    this.baseSnapshotId = baseSnapshotId;
    this.keys = keys.keysOnly();
    this.numAssigners = numAssigners;
    this.targetRowNum = targetRowNum;
    this.maxBuckets = maxBuckets;
    this.existing = Existing.of(table.schema());
    for (String k : table.schema().trimmedPrimaryKeys()) keyTypes.add(table.schema().field(k).type());
  }

  /**
   * @param partition the record's partition (serialized)
   * @param key the record's key (the primary-key columns)
   * @param retraction whether the record deletes the key
   */
  public Decision assign(byte[] partition, InternalRow key, boolean retraction) throws IOException {
    byte[] bytes = BinaryRows.toBytes(key, keyTypes);
    int hash = BinaryRows.hash(bytes);
    int assigner = PartitionBucketIndex.assignerOf(hash, numAssigners);
    KeyLocations live = load(assigner);
    KeyLocations.Location at = live.get(bytes);
    if (retraction) {
      if (at == null) return new Decision(-1, null, 0);
      live.remove(bytes);
      return new Decision(-1, at.partition, at.bucket);
    }
    if (at != null && Arrays.equals(at.partition, partition)) return new Decision(at.bucket, null, 0);
    if (at != null && existing == Existing.USE_OLD) return new Decision(at.bucket, at.partition, null, 0);
    if (at != null && existing == Existing.SKIP_NEW) return new Decision(-1, null, 0);
    int bucket = index(assigner, partition).assign(hash);
    live.put(bytes, partition, bucket);
    return at == null ? new Decision(bucket, null, 0) : new Decision(bucket, at.partition, at.bucket);
  }

  /**
   * Whether this task makes the new keys of {@code bucket} (of any partition): then it may compact
   * it. Other tasks may write retractions of keys that left the bucket, never of keys this task
   * writes, so the compaction and their files never hold the same key.
   */
  public boolean owns(int bucket) {
    return locations.containsKey(PartitionBucketIndex.assignerOf(bucket, numAssigners));
  }

  private PartitionBucketIndex index(int assigner, byte[] partition) {
    return partitions.get(assigner).computeIfAbsent(ByteBuffer.wrap(partition),
        p -> new PartitionBucketIndex(numAssigners, assigner, targetRowNum, maxBuckets));
  }

  /** Reads every live file's keys once per assigner (none of replaced partitions), keeping where its own keys live. */
  private KeyLocations load(int assigner) throws IOException {
    KeyLocations had = locations.get(assigner);
    if (had != null) return had;
    KeyLocations live = new KeyLocations();
    Map<String, List<ManifestEntry>> buckets = new LinkedHashMap<>();
    if (baseSnapshotId >= 0) {
      Map<ByteBuffer, Boolean> gone = new HashMap<>();
      for (ManifestEntry e : LiveFiles.read(table.manifests(), table.snapshots().snapshot(baseSnapshotId))) {
        if (replaced != null && gone.computeIfAbsent(ByteBuffer.wrap(e.partition),
            p -> replaced.test(BinaryRows.deserialize(e.partition, table.schema().partitionTypes())))) {
          continue;
        }
        buckets.computeIfAbsent(Arrays.toString(e.partition) + "/" + e.bucket, k -> new ArrayList<>()).add(e);
      }
    }
    Map<ByteBuffer, PartitionBucketIndex> indexes = new HashMap<>();
    // Deletion vectors mark records a compaction superseded (a retraction of a key that moved away
    // removes its older record this way): those records are not live.
    List<IndexManifestEntry> vectorIndex = List.of();
    if (baseSnapshotId >= 0 && table.options().deletionVectors()) {
      String manifest = table.snapshots().snapshot(baseSnapshotId).indexManifest;
      if (manifest != null) vectorIndex = table.manifests().readIndexManifest(manifest);
    }
    for (List<ManifestEntry> files : buckets.values()) {
      ManifestEntry first = files.get(0);
      BucketVectors vectors = vectorIndex.isEmpty() ? null
          : BucketVectors.of(table, first.partition, first.bucket, vectorIndex);
      KeyLocations.BucketLoad load = live.bucket(first.partition, first.bucket);
      // A bucket this assigner fills counts all its live keys toward its size; of the others
      // only this assigner's keys matter.
      boolean own = PartitionBucketIndex.assignerOf(first.bucket, numAssigners) == assigner;
      KeyLocations.BucketLoad all = own ? new KeyLocations().bucket(first.partition, first.bucket) : null;
      for (ManifestEntry e : files) {
        DeletionVector deleted = vectors == null ? null : vectors.of(e.file.fileName);
        try (CloseableIterator<KeyValue> it = keys.open(table.paths().bucketDir(e.partition, e.bucket), e.file)) {
          for (long position = 0; it.hasNext(); position++) {
            KeyValue kv = it.next();
            if (deleted != null && deleted.isDeleted(position)) continue;
            byte[] k = BinaryRows.toBytes(kv.key(), keyTypes);
            boolean retracted = !KeyValue.isAdd(kv.rowKind());
            if (all != null) all.record(k, kv.sequence(), retracted);
            if (PartitionBucketIndex.assignerOf(BinaryRows.hash(k), numAssigners) == assigner) {
              load.record(k, kv.sequence(), retracted);
            }
          }
        }
      }
      load.close();
      if (all != null) {
        indexes.computeIfAbsent(ByteBuffer.wrap(first.partition),
            p -> new PartitionBucketIndex(numAssigners, assigner, targetRowNum, maxBuckets))
            .countKeys(first.bucket, all.close());
      }
    }
    locations.put(assigner, live);
    partitions.put(assigner, indexes);
    return live;
  }
}
