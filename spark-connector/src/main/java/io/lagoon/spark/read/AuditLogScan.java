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
 */
public final class AuditLogScan implements Scan, Batch {
  public static final String ROWKIND = "rowkind";

  private final FileStoreTable table;
  private final StructType schema;

  public AuditLogScan(FileStoreTable table) {
    this.table = table;
    this.schema = schemaOf(table);
  }

  /** {@code rowkind} then the table's columns. */
  public static StructType schemaOf(FileStoreTable table) {
    StructType columns = SparkTypes.toSpark(table.schema().fields());
    StructType out = new StructType().add(ROWKIND, DataTypes.StringType, false);
    for (org.apache.spark.sql.types.StructField f : columns.fields()) out = out.add(f);
    return out;
  }

  @Override public StructType readSchema() { return schema; }
  @Override public Batch toBatch() { return this; }
  @Override public String description() { return table.fullName() + "$audit_log"; }

  /** One partition per bucket (primary keys: its files merge together) or per file (append). */
  @Override
  public InputPartition[] planInputPartitions() {
    try {
      Optional<Snapshot> latest = table.snapshots().latest();
      if (latest.isEmpty()) return new InputPartition[0];
      boolean pk = table.hasPrimaryKey();
      boolean hideLevel0 = pk && table.options().deletionVectors();
      DeletionVectorIndex vectors = pk ? DeletionVectorIndex.empty() : DeletionVectorIndex.forRead(table, latest.get());
      Map<String, Part> parts = new LinkedHashMap<>();
      for (ManifestEntry e : LiveFiles.read(table.manifests(), latest.get())) {
        if (e.bucket == DataFilePaths.POSTPONE_BUCKET || hideLevel0 && e.file.level == 0) continue;
        String dir = table.paths().bucketDir(e.partition, e.bucket).toString();
        String key = pk ? dir : dir + "/" + e.file.fileName;
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
    if (table.hasPrimaryKey()) return new Factory(table, KeyValueFileReader.build(spark, table, null), null);
    Set<String> formats = new HashSet<>(List.of("parquet", "orc"));
    StructType columns = SparkTypes.toSpark(table.schema().fields());
    DataFileReader reader = DataFileReader.build(spark, columns, columns, List.of(),
        new org.apache.hadoop.conf.Configuration(table.io().hadoopConf()), false, formats, true);
    Set<Long> ids = new HashSet<>();
    for (InputPartition p : planInputPartitions()) for (DataFileMeta f : ((Part) p).files) ids.add(f.schemaId);
    try {
      reader.withOlderSchemas(ids, table.schema().id(), table.schema().fields(), id -> table.schema(id).fields(),
          "table " + table.fullName());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the schemas of " + table.fullName() + ": " + e.getMessage(), e);
    }
    return new Factory(table, null, reader);
  }

  /** A bucket's files (or one file) and, on append tables, their deletion vectors. */
  private static final class Part implements InputPartition {
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
    private final KeyValueFileReader records;
    private final DataFileReader rows;

    Factory(FileStoreTable table, KeyValueFileReader records, DataFileReader rows) {
      this.table = table;
      this.records = records;
      this.rows = rows;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
      Part p = (Part) partition;
      return records != null ? new Merged(table.schema(), records, p) : new Appended(table, rows, p);
    }
  }

  /** A primary-key bucket merged, retractions kept, each row led by its merged record's kind. */
  private static final class Merged implements PartitionReader<InternalRow> {
    private final CloseableIterator<KeyValue> records;
    private final DataType[] types;
    private InternalRow row;

    Merged(TableSchema schema, KeyValueFileReader source, Part p) {
      List<PaimonType> keyTypes = new KeyValueLayout(schema).keyTypes();
      MergeTreeReader reader = new MergeTreeReader(source, new KeyComparator(keyTypes),
          MergeFunctions.recordOrder(schema.options(), schema.fields()),
          MergeFunctions.create(schema.options(), schema.fields(), schema.primaryKeys())).keepingDeletes();
      this.records = reader.read(new Path(p.bucketDir), KeySections.split(p.files, keyTypes));
      this.types = types(schema);
    }

    @Override
    public boolean next() {
      if (!records.hasNext()) return false;
      KeyValue kv = records.next();
      row = withKind(KeyValue.kindName(kv.rowKind()), kv.value(), types);
      return true;
    }

    @Override public InternalRow get() { return row; }
    @Override public void close() { records.close(); }
  }

  /** An append table's files, deletion vectors applied, every row {@code +I}. */
  private static final class Appended implements PartitionReader<InternalRow> {
    private static final String INSERT = "+I";
    private final FileStoreTable table;
    private final DataFileReader reader;
    private final Part part;
    private final DeletionVectorIndex.Loader loader;
    private final DataType[] types;
    private int file = -1;
    private scala.collection.Iterator<InternalRow> current;
    private InternalRow row;

    Appended(FileStoreTable table, DataFileReader reader, Part part) {
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
      row = withKind(INSERT, current.next(), types);
      return true;
    }

    @Override public InternalRow get() { return row; }

    @Override
    public void close() throws IOException {
      if (current instanceof Closeable) ((Closeable) current).close();
      current = null;
    }
  }

  private static DataType[] types(TableSchema schema) {
    StructType columns = SparkTypes.toSpark(schema.fields());
    DataType[] out = new DataType[columns.fields().length];
    for (int i = 0; i < out.length; i++) out[i] = columns.fields()[i].dataType();
    return out;
  }

  private static InternalRow withKind(String kind, InternalRow value, DataType[] types) {
    Object[] out = new Object[types.length + 1];
    out[0] = UTF8String.fromString(kind);
    for (int i = 0; i < types.length; i++) out[i + 1] = value.isNullAt(i) ? null : value.get(i, types[i]);
    return new GenericInternalRow(out);
  }
}
