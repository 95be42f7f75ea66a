package io.lagoon.spark.read;

import io.lagoon.core.deletionvectors.DeletionVector;
import io.lagoon.core.deletionvectors.DeletionVectorIndex;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.CloseableIterator;
import io.lagoon.core.mergetree.KeyComparator;
import io.lagoon.core.mergetree.KeySections;
import io.lagoon.core.mergetree.KeyValueFileReader;
import io.lagoon.core.mergetree.KeyValueLayout;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.mergetree.engine.MergeFunctions;
import io.lagoon.core.mergetree.read.MergeTreeReader;
import io.lagoon.core.read.DataFileReader;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.DataFilePaths;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.SparkTypes;
import java.io.Closeable;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code t$audit_log}: the table's rows with their row kind first ({@code +I}, {@code -U},
 * {@code +U}, {@code -D}), as of the latest snapshot. A primary-key table's buckets are merged
 * keeping retractions, so a key whose last record deletes it shows as {@code -D} until a
 * compaction drops it, and each row carries its last record's kind; with deletion vectors level 0
 * is left out, as in every read. An append table's rows are all {@code +I}.
 *
 * <p>Over the files of an incremental read ({@code incremental-between}, {@code IncrementalFiles})
 * it reads the changes instead: every record those commits wrote, unmerged, each with its kind
 * (as Paimon's delta mode returns them); without the kind column it is the table's own
 * incremental read.
 */
public final class AuditLogScan implements Scan, Batch {
  public static final String ROWKIND = "rowkind";

  private final FileStoreTable table;
  private final StructType schema;
  private final boolean withKind;
  /** The files of an incremental read; null for the latest snapshot's live files. */
  private final List<ManifestEntry> incremental;
  /** Whether retractions ({@code -U}, {@code -D} records) are left out (a stream's rows). */
  private boolean withoutRetractions;
  /** The snapshot read instead of the latest (a stream's first batch); null for the latest. */
  private Snapshot pinned;
  /** The read options, for a stream of {@code t$audit_log}. */
  private org.apache.spark.sql.util.CaseInsensitiveStringMap streamOptions =
      org.apache.spark.sql.util.CaseInsensitiveStringMap.empty();

  /** This scan, leaving retraction records out of its rows (a stream of a primary-key table). */
  AuditLogScan withoutRetractions() {
    withoutRetractions = true;
    return this;
  }

  /** This scan, reading the given snapshot's rows instead of the latest one's. */
  AuditLogScan atSnapshot(Snapshot snapshot) {
    if (planned != null) throw new IllegalStateException("The audit log of " + table.fullName() + " is planned already");
    pinned = snapshot;
    return this;
  }

  /** This scan, streamed with these read options ({@code scan.mode}, {@code consumer-id}, ...). */
  public AuditLogScan streamedWith(org.apache.spark.sql.util.CaseInsensitiveStringMap options) {
    streamOptions = options;
    return this;
  }

  /** {@code t$audit_log} as a stream: the rows of the first snapshot read, then every change with its kind. */
  @Override
  public org.apache.spark.sql.connector.read.streaming.MicroBatchStream toMicroBatchStream(String checkpointLocation) {
    if (!withKind || incremental != null) {
      throw new UnsupportedOperationException("Only " + table.fullName() + "$audit_log itself is read as a stream");
    }
    return new SnapshotMicroBatchStream(table, schema, streamOptions, true);
  }

  public AuditLogScan(FileStoreTable table) {
    this(table, true, null);
  }

  /**
   * @param withKind whether rows are led by their row kind ({@code t$audit_log})
   * @param incremental the files of an incremental read, or null for the latest snapshot
   */
  public AuditLogScan(FileStoreTable table, boolean withKind, List<ManifestEntry> incremental) {
    this.table = table;
    this.withKind = withKind;
    this.incremental = incremental;
    this.schema = withKind ? schemaOf(table) : SparkTypes.toSpark(table.schema().fields());
  }

  /** The files of an incremental read between two snapshot ids (see {@link IncrementalOptions}). */
  static List<ManifestEntry> incrementalFiles(FileStoreTable table, IncrementalOptions.Range range) {
    try {
      return io.lagoon.core.scan.IncrementalFiles.between(table, range.from(), range.to());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the snapshots of " + table.fullName() + ": " + e.getMessage(), e);
    }
  }

  /** {@code rowkind} then the table's columns. */
  public static StructType schemaOf(FileStoreTable table) {
    StructType columns = SparkTypes.toSpark(table.schema().fields());
    StructType out = new StructType().add(ROWKIND, DataTypes.StringType, false);
    for (org.apache.spark.sql.types.StructField f : columns.fields()) out = out.add(f);
    return out;
  }

  @Override public StructType readSchema() { return schema; }
  @Override
  public Batch toBatch() {
    SnapshotMicroBatchStream.refuseConsumerOnBatch(table.fullName() + "$audit_log", streamOptions);
    return this;
  }
  @Override
  public String description() {
    return table.fullName() + (withKind ? "$audit_log" : "") + (incremental == null ? "" : " (incremental)");
  }

  /** One partition per bucket (primary keys: its files merge together) or per file (append). */
  /** Planned once: the reader factory needs the files' schemas, Spark the partitions. */
  private InputPartition[] planned;

  @Override
  public synchronized InputPartition[] planInputPartitions() {
    if (planned == null) planned = plan();
    return planned;
  }

  private InputPartition[] plan() {
    try {
      Optional<Snapshot> latest = pinned != null ? Optional.of(pinned) : table.snapshots().latest();
      if (latest.isEmpty()) return new InputPartition[0];
      boolean pk = table.hasPrimaryKey();
      // An incremental read takes the files its commits added, level 0 included, without vectors.
      boolean hideLevel0 = pk && table.options().deletionVectors() && incremental == null;
      DeletionVectorIndex vectors = pk || incremental != null ? DeletionVectorIndex.empty()
          : DeletionVectorIndex.forRead(table, latest.get());
      Map<String, Part> parts = new LinkedHashMap<>();
      for (ManifestEntry e : incremental != null ? incremental : LiveFiles.read(table.manifests(), latest.get())) {
        if (e.bucket == DataFilePaths.POSTPONE_BUCKET || hideLevel0 && e.file.level == 0) continue;
        String dir = table.paths().bucketDir(e.partition, e.bucket).toString();
        String key = pk && incremental == null ? dir : dir + "/" + e.file.fileName;
        parts.computeIfAbsent(key, k -> new Part(dir)).add(e.file, vectors.refOf(e.file.fileName));
      }
      return parts.values().toArray(new InputPartition[0]);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan the audit log of " + table.fullName() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    SparkSession spark = SparkSession.active();
    if (table.hasPrimaryKey()) {
      Factory f = new Factory(table, withKind, KeyValueFileReader.build(spark, table, null), null);
      f.merge = incremental == null;
      f.withoutRetractions = withoutRetractions;
      return f;
    }
    List<DataFileMeta> files = new ArrayList<>();
    for (InputPartition p : planInputPartitions()) files.addAll(((Part) p).files);
    DataFileReader reader = appendReader(spark, table, files);
    return new Factory(table, withKind, null, reader);
  }

  /** A row reader of an append table's files, whatever schema they were written under. */
  static DataFileReader appendReader(SparkSession spark, FileStoreTable table, List<DataFileMeta> files) {
    StructType columns = SparkTypes.toSpark(table.schema().fields());
    DataFileReader reader = DataFileReader.build(spark, columns, columns, List.of(),
        new org.apache.hadoop.conf.Configuration(table.io().hadoopConf()), false, new HashSet<>(List.of("parquet", "orc")),
        true);
    Set<Long> ids = new HashSet<>();
    for (DataFileMeta f : files) ids.add(f.schemaId);
    try {
      return reader.withOlderSchemas(ids, table.schema().id(), table.schema().fields(), id -> table.schema(id).fields(),
          "table " + table.fullName());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the schemas of " + table.fullName() + ": " + e.getMessage(), e);
    }
  }

  /** A bucket's files (or one file) and, on append tables, their deletion vectors. */
  static final class Part implements InputPartition {
    final String bucketDir;
    final List<DataFileMeta> files = new ArrayList<>();
    final List<DeletionVectorIndex.Ref> vectors = new ArrayList<>();

    Part(String bucketDir) {
      this.bucketDir = bucketDir;
    }

    void add(DataFileMeta f, DeletionVectorIndex.Ref v) {
      files.add(f);
      vectors.add(v);
    }
  }

  private static final class Factory implements PartitionReaderFactory, Serializable {
    private final FileStoreTable table;
    private final boolean withKind;
    private final KeyValueFileReader records;
    private final DataFileReader rows;
    /** Whether a bucket's files are merged (the latest snapshot) or their records read as written (changes). */
    private boolean merge = true;
    private boolean withoutRetractions;

    Factory(FileStoreTable table, boolean withKind, KeyValueFileReader records, DataFileReader rows) {
      this.table = table;
      this.withKind = withKind;
      this.records = records;
      this.rows = rows;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
      Part p = (Part) partition;
      if (records == null) return new Appended(table, rows, p, withKind);
      return merge ? new Merged(table.schema(), records, p, withKind, withoutRetractions)
          : new Records(table.schema(), records, p, withKind, withoutRetractions);
    }
  }

  /**
   * A primary-key bucket merged, each row led by its merged record's kind; retractions kept
   * unless left out (a stream's first batch, which holds the rows as they stand).
   */
  private static final class Merged implements PartitionReader<InternalRow> {
    private final CloseableIterator<KeyValue> records;
    private final DataType[] types;
    private final boolean withKind;
    private final boolean withoutRetractions;
    private InternalRow row;

    Merged(TableSchema schema, KeyValueFileReader source, Part p, boolean withKind, boolean withoutRetractions) {
      this.withKind = withKind;
      this.withoutRetractions = withoutRetractions;
      List<PaimonType> keyTypes = new KeyValueLayout(schema).keyTypes();
      MergeTreeReader reader = new MergeTreeReader(source, new KeyComparator(keyTypes),
          MergeFunctions.recordOrder(schema.options(), schema.fields()),
          MergeFunctions.create(schema.options(), schema.fields(), schema.primaryKeys())).keepingDeletes();
      this.records = reader.read(new Path(p.bucketDir), KeySections.split(p.files, keyTypes));
      this.types = types(schema);
    }

    @Override
    public boolean next() {
      KeyValue kv;
      do {
        if (!records.hasNext()) return false;
        kv = records.next();
      } while (withoutRetractions && isRetraction(kv));
      row = withKind(withKind ? KeyValue.kindName(kv.rowKind()) : null, kv.value(), types);
      return true;
    }

    @Override public InternalRow get() { return row; }
    @Override public void close() { records.close(); }
  }

  /** A primary-key table's changes: every record of the files, as written, with its kind. */
  private static final class Records implements PartitionReader<InternalRow> {
    private final KeyValueFileReader source;
    private final Part part;
    private final DataType[] types;
    private final boolean withKind;
    private final boolean withoutRetractions;
    private int file = -1;
    private CloseableIterator<KeyValue> current;
    private InternalRow row;

    Records(TableSchema schema, KeyValueFileReader source, Part part, boolean withKind, boolean withoutRetractions) {
      this.source = source;
      this.part = part;
      this.types = types(schema);
      this.withKind = withKind;
      this.withoutRetractions = withoutRetractions;
    }

    @Override
    public boolean next() {
      KeyValue kv;
      do {
        while (current == null || !current.hasNext()) {
          close();
          if (++file >= part.files.size()) return false;
          current = source.open(new Path(part.bucketDir), part.files.get(file));
        }
        kv = current.next();
      } while (withoutRetractions && isRetraction(kv));
      row = withKind(withKind ? KeyValue.kindName(kv.rowKind()) : null, kv.value(), types);
      return true;
    }

    @Override public InternalRow get() { return row; }

    @Override
    public void close() {
      if (current != null) current.close();
      current = null;
    }
  }

  /** An append table's files, deletion vectors applied, every row {@code +I}. */
  static final class Appended implements PartitionReader<InternalRow> {
    private static final String INSERT = "+I";
    private final FileStoreTable table;
    private final DataFileReader reader;
    private final Part part;
    private final DeletionVectorIndex.Loader loader;
    private final DataType[] types;
    private final boolean withKind;
    private int file = -1;
    private scala.collection.Iterator<InternalRow> current;
    private InternalRow row;

    Appended(FileStoreTable table, DataFileReader reader, Part part, boolean withKind) {
      this.withKind = withKind;
      this.table = table;
      this.reader = reader;
      this.part = part;
      this.loader = new DeletionVectorIndex.Loader(table.io(), table.dir(), table.fullName());
      this.types = types(table.schema());
    }

    @Override
    public boolean next() throws IOException {
      while (current == null || !current.hasNext()) {
        close();
        if (++file >= part.files.size()) return false;
        DataFileMeta f = part.files.get(file);
        DeletionVectorIndex.Ref ref = part.vectors.get(file);
        DeletionVector dv = ref == null ? null : loader.load(ref);
        current = reader.open(new Path(part.bucketDir, f.fileName), 0, f.fileSize, f.fileSize, dv, n -> { }, f.schemaId);
      }
      row = withKind(withKind ? INSERT : null, current.next(), types);
      return true;
    }

    @Override public InternalRow get() { return row; }

    @Override
    public void close() throws IOException {
      if (current instanceof Closeable) ((Closeable) current).close();
      current = null;
    }
  }

  private static boolean isRetraction(KeyValue kv) {
    return kv.rowKind() == KeyValue.DELETE || kv.rowKind() == KeyValue.UPDATE_BEFORE;
  }

  static DataType[] types(TableSchema schema) {
    StructType columns = SparkTypes.toSpark(schema.fields());
    DataType[] out = new DataType[columns.fields().length];
    for (int i = 0; i < out.length; i++) out[i] = columns.fields()[i].dataType();
    return out;
  }

  /** The value's columns, led by the kind when one is given. */
  static InternalRow withKind(String kind, InternalRow value, DataType[] types) {
    int lead = kind == null ? 0 : 1;
    Object[] out = new Object[types.length + lead];
    if (kind != null) out[0] = UTF8String.fromString(kind);
    for (int i = 0; i < types.length; i++) out[i + lead] = value.isNullAt(i) ? null : value.get(i, types[i]);
    return new GenericInternalRow(out);
  }
}
