package io.lagoon.core.mergetree.write;

import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.KeyComparator;
import io.lagoon.core.mergetree.KeyValueLayout;
import io.lagoon.core.data.BinaryRowEncoder;
import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.deletionvectors.BucketVectorChange;
import io.lagoon.core.dynamicbucket.CrossPartitionAssigner;
import io.lagoon.core.deletionvectors.BucketVectors;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.BaseFiles;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.mergetree.engine.MergeFunctions;
import io.lagoon.core.mergetree.engine.MergeOptions;
import io.lagoon.core.mergetree.engine.RecordOrder;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.DataFilePaths;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.SparkTypes;
import io.lagoon.core.write.PartitionExtractor;
import io.lagoon.core.write.PartitionKey;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.lagoon.core.mergetree.compact.BucketCompactor;
import io.lagoon.core.mergetree.compact.CompactResult;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;

/**
 * Writes one task's rows into a primary-key table: each row goes to its partition and to the
 * bucket its key gets ({@link KeyBuckets}: Paimon's hash of the bucket key over fixed buckets, or
 * a dynamic bucket), where a {@link BucketWriter} writes key-sorted
 * level-0 files. Sequence numbers continue from the bucket's highest in the base snapshot.
 * Rows are expected sorted by (partition, key) — Spark does that for the connector — so a task
 * keeps the buckets of one partition open together, each receiving its rows in key order, and
 * closes them when the partition changes. Sorting by bucket too would make Spark hash every row
 * at each comparison of its sort. Any order is written correctly, only into more files.
 */
public final class KeyValueTableWriter {
  /**
   * Open files a task keeps at most (each buffers a row group in memory); a bucket whose file was
   * closed early starts another level-0 file, which compaction merges later.
   */
  static final int MAX_OPEN_FILES = 32;

  private final FileStoreTable table;
  private final TableSchema schema;
  private final BaseFiles base;
  private final long baseSnapshotId;
  private final KeyValueSource source;
  private final PartitionExtractor partitions;
  private final DataFilePaths paths;
  private final KeyBuckets keyBuckets;
  private final int[] primaryKeyIndexes;
  private final int[] keyIndexes;
  private final DataType[] keyTypes;
  /** Encodes a row's bucket key, to hash it, in a reused buffer. */
  private final BinaryRowEncoder bucketKeys;
  private final int rowKindIndex;
  private final KeyComparator keyComparator;
  private final RecordOrder order;
  /** Buckets written, by partition then bucket number, and in the order they were first met. */
  private final Map<PartitionKey, BucketState[]> byPartition = new HashMap<>();
  private final List<BucketState> buckets = new ArrayList<>();
  private PartitionKey currentPartition;
  private BucketState[] currentBuckets;
  /** Row-level statement: its retractions are ordered before its additions (see {@link BucketWriter}). */
  private final boolean retractionsFirst;
  /** A MERGE run as an upsert: its rows must have distinct keys; what it is, else null. */
  private String uniqueKeysOf;
  /** Buckets with an open file, oldest first: beyond {@link #MAX_OPEN_FILES} the oldest closes its file. */
  private final ArrayDeque<BucketState> open = new ArrayDeque<>();
  /** Whether buckets keep their input records as changelog files ({@code changelog-producer}={@code input}). */
  private boolean keepChangelog;
  /** The partitions of the rows given (a dynamic overwrite replaces these), and the last one met. */
  private final java.util.Set<PartitionKey> rowPartitions = new java.util.LinkedHashSet<>();
  private PartitionKey lastRowPartition;
  /** Cross-partition: keys to retract where they lived, written at finish. */
  private final List<Retraction> pendingRetractions = new ArrayList<>();

  /** A key to retract in the (partition, bucket) it lived in before this write moved it. */
  private static final class Retraction {
    final PartitionKey partition;
    final int bucket;
    final InternalRow row;

    Retraction(PartitionKey partition, int bucket, InternalRow row) {
      this.partition = partition;
      this.bucket = bucket;
      this.row = row;
    }
  }

  /** One bucket this task writes. */
  private static final class BucketState {
    final PartitionKey partition;
    final int bucket;
    /** The bucket count its files record. */
    final int totalBuckets;
    final BucketWriter writer;
    /** Whether it sits in {@code open}. */
    boolean hasOpenFile;

    BucketState(PartitionKey partition, int bucket, int totalBuckets, BucketWriter writer) {
      this.partition = partition;
      this.bucket = bucket;
      this.totalBuckets = totalBuckets;
      this.writer = writer;
    }
  }

  /**
   * @param baseSnapshotId the snapshot the write started from (its live files seed sequence
   *     numbers and compaction), or -1 for none (an empty table, or an overwrite)
   * @param source reads existing files for write-triggered compaction; null disables compaction
   */
  public KeyValueTableWriter(FileStoreTable table, long baseSnapshotId, KeyValueSource source) {
    this(table, baseSnapshotId, source, false);
  }

  /**
   * @param retractionsFirst a row-level statement (DELETE, UPDATE, MERGE): each of its retractions
   *     is older than each of its additions, in whatever task or order they are written
   */
  public KeyValueTableWriter(FileStoreTable table, long baseSnapshotId, KeyValueSource source,
                             boolean retractionsFirst) {
    this(table, baseSnapshotId, source, retractionsFirst, null);
  }

  /**
   * @param keyBuckets picks each key's bucket; null for the table's fixed buckets
   */
  public KeyValueTableWriter(FileStoreTable table, long baseSnapshotId, KeyValueSource source,
                             boolean retractionsFirst, KeyBuckets keyBuckets) {
    this.table = table;
    this.retractionsFirst = retractionsFirst;
    this.schema = table.schema();
    if (schema.primaryKeys().isEmpty()) {
      throw new IllegalArgumentException("Table " + table.fullName() + " has no primary key");
    }
    int numBuckets = table.options().bucket();
    if (keyBuckets == null && numBuckets <= 0 && numBuckets != DataFilePaths.POSTPONE_BUCKET) {
      throw new UnsupportedOperationException("Table " + table.fullName() + " has 'bucket'='" + numBuckets
          + "': its buckets are dynamic, and the write must say how it assigns them");
    }
    this.base = new BaseFiles(table, baseSnapshotId);
    this.keyBuckets = keyBuckets != null ? keyBuckets
        : numBuckets == DataFilePaths.POSTPONE_BUCKET ? KeyBuckets.postponed(base, table.options().postponeDefaultBucketNum())
        : KeyBuckets.fixed(numBuckets);
    this.baseSnapshotId = baseSnapshotId;
    this.source = source;
    this.partitions = new PartitionExtractor(schema, table.options().partitionDefaultName());
    this.paths = table.paths();
    this.primaryKeyIndexes = indexes(schema.primaryKeys());
    List<String> trimmed = schema.trimmedPrimaryKeys();
    this.keyIndexes = indexes(trimmed);
    this.keyTypes = sparkTypes(trimmed);
    List<String> bucketKeys = schema.bucketKeys();
    List<PaimonType> bucketKeyTypes = new ArrayList<>();
    for (String k : bucketKeys) bucketKeyTypes.add(schema.field(k).type());
    this.bucketKeys = new BinaryRowEncoder(bucketKeyTypes, indexes(bucketKeys));
    String kindField = table.options().rowKindField();
    this.rowKindIndex = kindField == null ? -1 : schema.fieldIndex(kindField);
    if (kindField != null && rowKindIndex < 0) {
      throw new IllegalArgumentException("Table option 'rowkind.field'='" + kindField + "' of " + table.fullName()
          + " names no column");
    }
    this.keyComparator = new KeyComparator(new KeyValueLayout(schema).keyTypes());
    this.order = MergeFunctions.recordOrder(schema.options(), schema.fields());
    this.keepChangelog = table.options().inputChangelog();
  }

  /**
   * The write replaces partitions (an overwrite): it keeps no changelog, as Paimon commits none
   * for an overwrite (streaming readers skip overwrite snapshots).
   */
  public KeyValueTableWriter withoutChangelog() {
    this.keepChangelog = false;
    return this;
  }

  private int[] indexes(List<String> names) {
    int[] out = new int[names.size()];
    for (int i = 0; i < out.length; i++) out[i] = schema.fieldIndex(names.get(i));
    return out;
  }

  private DataType[] sparkTypes(List<String> names) {
    DataType[] out = new DataType[names.size()];
    for (int i = 0; i < out.length; i++) out[i] = SparkTypes.toSpark(schema.field(names.get(i)).type());
    return out;
  }

  /**
   * Rows arrive sorted by key and must have distinct keys, else the write fails naming
   * {@code statement} (a MERGE run as an upsert refuses what the general MERGE refuses).
   */
  public KeyValueTableWriter requireUniqueKeys(String statement) {
    this.uniqueKeysOf = statement;
    return this;
  }

  /** Writes a full table row; its kind comes from the {@code rowkind.field} column, else {@code +I}. */
  public void write(InternalRow row) throws IOException {
    InternalRow value = row.copy(); // held until the next key: input rows are reused
    byte kind = rowKindIndex < 0 ? KeyValue.INSERT
        : RowKinds.parse(value.isNullAt(rowKindIndex) ? null : value.getUTF8String(rowKindIndex).toString(),
            schema.fields().get(rowKindIndex).name(), table.fullName());
    write(value, kind);
  }

  /**
   * Writes a full table row of a given kind ({@link KeyValue#INSERT}, {@link KeyValue#UPDATE_AFTER},
   * {@link KeyValue#DELETE}); a retraction needs only its key columns. The row must not change
   * afterwards (pass a copy).
   */
  public void write(InternalRow value, byte kind) throws IOException {
    for (int i : primaryKeyIndexes) {
      if (value.isNullAt(i)) {
        throw new IllegalArgumentException("Primary key column '" + schema.fields().get(i).name() + "' of "
            + table.fullName() + " is null; every primary-key column needs a value");
      }
    }
    PartitionKey partition = partitions.partitionOf(value);
    if (!partition.equals(lastRowPartition)) {
      rowPartitions.add(partition);
      lastRowPartition = partition;
    }
    CrossPartitionAssigner cross = keyBuckets.crossPartition();
    if (cross != null) {
      writeCrossPartition(cross, partition, value, kind);
      return;
    }
    writeTo(partition, -1, value, kind);
  }

  /**
   * A cross-partition record: written where its key lives, or into its partition with a new
   * bucket after a retraction where the key lived. Retractions are written at {@link #finish},
   * grouped by partition, so the sorted input keeps its partitions' files together.
   */
  private void writeCrossPartition(CrossPartitionAssigner cross, PartitionKey partition, InternalRow value, byte kind)
      throws IOException {
    CrossPartitionAssigner.Decision d = cross.assign(partition.bytes, project(value, keyIndexes, keyTypes),
        !KeyValue.isAdd(kind));
    if (d.retractPartition != null) {
      pendingRetractions.add(new Retraction(partitionKey(d.retractPartition, partition), d.retractBucket, value));
    }
    if (d.bucket < 0) return;
    if (d.partition == null) {
      writeTo(partition, d.bucket, value, kind);
      return;
    }
    // The engine merges the record where its key lives (partial-update, aggregation).
    PartitionKey lives = partitionKey(d.partition, partition);
    if (retractionsFirst) {
      // A row-level statement asked for the row in another partition, which the engine would ignore.
      throw new UnsupportedOperationException("Cannot move a row of " + table.fullName() + " to partition "
          + partitionName(partition) + ": its primary key " + schema.primaryKeys()
          + " leaves out partition columns and its merge engine '" + new MergeOptions(schema.options()).engine()
          + "' keeps each key in the partition it lives in (" + partitionName(lives)
          + "), as Paimon does; only 'deduplicate' tables move keys. Nothing was committed");
    }
    writeTo(lives, d.bucket, withPartition(value, lives), kind);
  }

  private String partitionName(PartitionKey p) {
    return io.lagoon.core.table.PartitionPaths.path(schema.partitionFields(), p.row,
        table.options().partitionDefaultName());
  }

  private PartitionKey partitionKey(byte[] bytes, PartitionKey known) {
    return Arrays.equals(bytes, known.bytes) ? known
        : new PartitionKey(BinaryRows.deserialize(bytes, schema.partitionTypes()), bytes);
  }

  /** Spark types of every column, in value-row order; made on the first redirected record. */
  private DataType[] valueTypes;

  /** A copy of {@code value} whose partition columns hold {@code partition}'s values. */
  private InternalRow withPartition(InternalRow value, PartitionKey partition) {
    if (valueTypes == null) {
      List<String> names = new ArrayList<>();
      for (io.lagoon.core.types.DataField f : schema.fields()) names.add(f.name());
      valueTypes = sparkTypes(names);
    }
    Object[] out = new Object[valueTypes.length];
    for (int i = 0; i < out.length; i++) out[i] = value.get(i, valueTypes[i]);
    List<String> keys = schema.partitionKeys();
    for (int i = 0; i < keys.size(); i++) {
      int at = schema.fieldIndex(keys.get(i));
      out[at] = partition.row.get(i, valueTypes[at]);
    }
    return new GenericInternalRow(out);
  }

  /** Writes into the bucket the table's {@link KeyBuckets} picks ({@code bucket} -1), or into {@code bucket}. */
  private void writeTo(PartitionKey partition, int givenBucket, InternalRow value, byte kind) throws IOException {
    if (currentPartition == null || !currentPartition.equals(partition)) {
      // Sorted input: the previous partition is done.
      for (BucketState b : open) {
        b.writer.closeFile();
        b.hasOpenFile = false;
      }
      open.clear();
      currentPartition = partition;
      currentBuckets = byPartition.computeIfAbsent(partition, p -> new BucketState[16]);
    }
    int bucket = givenBucket >= 0 ? givenBucket : keyBuckets.bucket(currentPartition, bucketKeys.hash(value));
    if (bucket >= currentBuckets.length) {
      currentBuckets = java.util.Arrays.copyOf(currentBuckets, Math.max(bucket + 1, currentBuckets.length * 2));
      byPartition.put(currentPartition, currentBuckets);
    }
    BucketState state = currentBuckets[bucket];
    if (state == null) {
      state = bucketState(partition, bucket);
      currentBuckets[bucket] = state;
    }
    if (!state.hasOpenFile) {
      if (open.size() >= MAX_OPEN_FILES) {
        BucketState oldest = open.poll();
        oldest.writer.closeFile();
        oldest.hasOpenFile = false;
      }
      open.add(state);
      state.hasOpenFile = true;
    }
    state.writer.write(project(value, keyIndexes, keyTypes), kind, value);
  }

  private static InternalRow project(InternalRow row, int[] indexes, DataType[] types) {
    Object[] out = new Object[indexes.length];
    for (int i = 0; i < out.length; i++) out[i] = row.get(indexes[i], types[i]);
    return new GenericInternalRow(out);
  }

  private BucketState bucketState(PartitionKey partition, int bucket) throws IOException {
    int totalBuckets = keyBuckets.totalBuckets(partition);
    BucketWriter w = new BucketWriter(table, paths.bucketDir(partition.row, bucket),
        base.nextSequence(partition.bytes, bucket, totalBuckets),
        keyComparator, order, MergeFunctions.create(schema.options(), schema.fields(), schema.primaryKeys()),
        retractionsFirst, uniqueKeysOf, keepChangelog);
    BucketState s = new BucketState(partition, bucket, totalBuckets, w);
    buckets.add(s);
    return s;
  }

  /**
   * Closes every file and, unless compaction is off ({@code write-only}, or no source), lets each
   * written bucket run one universal-compaction pick over its base files plus the new ones.
   */
  public KeyValueWriteResult finish() throws IOException {
    pendingRetractions.sort((a, b) -> Arrays.compare(a.partition.bytes, b.partition.bytes));
    for (Retraction r : pendingRetractions) writeTo(r.partition, r.bucket, r.row, KeyValue.DELETE);
    pendingRetractions.clear();
    List<ManifestEntry> added = new ArrayList<>();
    List<ManifestEntry> changelog = new ArrayList<>();
    List<ManifestEntry> before = new ArrayList<>();
    List<ManifestEntry> after = new ArrayList<>();
    List<BucketVectorChange> vectorChanges = new ArrayList<>();
    boolean compact = source != null && !table.options().writeOnly();
    for (BucketState s : buckets) {
      List<ManifestEntry> fresh = new ArrayList<>();
      for (DataFileMeta f : s.writer.finish()) {
        fresh.add(new ManifestEntry(FileKind.ADD, s.partition.bytes, s.bucket, s.totalBuckets, f));
      }
      added.addAll(fresh);
      for (DataFileMeta f : s.writer.changelogFiles()) {
        changelog.add(new ManifestEntry(FileKind.ADD, s.partition.bytes, s.bucket, s.totalBuckets, f));
      }
      if (compact && !fresh.isEmpty() && keyBuckets.compacts(s.partition, s.bucket)) {
        compactBucket(s, fresh, before, after, vectorChanges);
      }
    }
    List<byte[]> given = new ArrayList<>();
    for (PartitionKey p : rowPartitions) given.add(p.bytes);
    return new KeyValueWriteResult(added, before, after, vectorChanges, keyBuckets.freshHashes(), baseSnapshotId)
        .withChangelog(changelog).withRowPartitions(given);
  }

  private void compactBucket(BucketState s, List<ManifestEntry> fresh, List<ManifestEntry> before,
                             List<ManifestEntry> after, List<BucketVectorChange> vectorChanges) throws IOException {
    Map<String, ManifestEntry> byName = new LinkedHashMap<>();
    List<ManifestEntry> baseFiles = base.of(s.partition.bytes, s.bucket);
    for (ManifestEntry e : baseFiles) byName.put(e.file.fileName, e);
    for (ManifestEntry e : fresh) byName.put(e.file.fileName, e);
    List<DataFileMeta> files = new ArrayList<>();
    for (ManifestEntry e : byName.values()) files.add(e.file);
    BucketCompactor.Mode mode = BucketCompactor.Mode.afterWrite(schema);
    BucketVectors vectors = table.options().deletionVectors()
        ? BucketVectors.of(table, s.partition.bytes, s.bucket, base.vectorIndex()) : null;
    Optional<CompactResult> result = BucketCompactor.compact(table, s.partition.bytes, s.bucket, files, source, mode,
        vectors);
    if (result.isEmpty()) return;
    if (vectors != null) vectorChanges.add(vectors.change(table, baseFiles));
    for (DataFileMeta f : result.get().before()) before.add(byName.get(f.fileName));
    for (DataFileMeta f : result.get().after()) {
      after.add(new ManifestEntry(FileKind.ADD, s.partition.bytes, s.bucket, s.totalBuckets, f));
    }
  }

  /** Deletes every file this writer produced. */
  public void abort() {
    pendingRetractions.clear();
    for (BucketState s : buckets) s.writer.abort();
    buckets.clear();
    byPartition.clear();
    open.clear();
    currentPartition = null;
    currentBuckets = null;
  }

}
