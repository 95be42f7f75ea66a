package io.lagoon.spark.procedures.compact;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.lagoon.core.compaction.SortKeyEncoder;
import io.lagoon.core.deletionvectors.DeletionVector;
import io.lagoon.core.deletionvectors.DeletionVectorIndex;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.operation.RewriteFiles;
import io.lagoon.core.read.DataFileReader;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.spark.compact.CompactionJob;
import io.lagoon.spark.compact.CompactionOutcome;
import io.lagoon.spark.compact.SparkJobs;
import io.lagoon.core.table.InflightWrites;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.SparkTypes;
import io.lagoon.core.write.AppendTableWriter;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.JoinedRow;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Sort compaction of a bucket-unaware append table: every live file of the selected partitions
 * is read (deleted rows left out), each row gets its z-order or Hilbert key of the {@code order_by}
 * columns (or, for {@code order}, the columns themselves are the key), Spark range-partitions and
 * sorts them by partition columns then key, and each task writes its sorted rows as new files of
 * {@code target-file-size}; one COMPACT snapshot replaces exactly the files read.
 */
final class SortRewriteJob {
  static final String KEY = "__lagoon_sort_key";

  private SortRewriteJob() {}

  /** @param curve null for the plain (lexicographic) order of the columns */
  static CompactionOutcome run(SparkSession session, FileStoreTable table, Snapshot base, Predicate<ManifestEntry> selection,
                               SortKeyEncoder.Curve curve, List<String> orderBy) throws IOException {
    List<ManifestEntry> files = new ArrayList<>();
    for (ManifestEntry e : LiveFiles.read(table.manifests(), base)) if (selection.test(e)) files.add(e);
    if (files.isEmpty()) return CompactionOutcome.NOTHING;
    StructType schema = SparkTypes.toSpark(table.schema().fields());
    DeletionVectorIndex vectors = table.options().deletionVectors() ? DeletionVectorIndex.of(table, base)
        : DeletionVectorIndex.empty();
    Set<String> formats = new HashSet<>();
    List<FileToRead> toRead = new ArrayList<>();
    Map<String, String> vectorsRead = new TreeMap<>();
    long bytes = 0;
    for (ManifestEntry e : files) {
      formats.add(DataFileReader.formatOf(e.file.fileName));
      DeletionVectorIndex.Ref ref = vectors.refOf(e.file.fileName);
      toRead.add(new FileToRead(e, ref));
      if (table.options().deletionVectors()) vectorsRead.put(e.file.fileName, DeletionVectorIndex.Ref.keyOf(ref));
      bytes += e.file.fileSize;
    }
    formats.remove(null);
    DataFileReader reader = DataFileReader.build(session, schema, schema, List.of(),
        new org.apache.hadoop.conf.Configuration(table.io().hadoopConf()), false, formats, table.options().deletionVectors(),
        false, false, true);
    Set<Long> schemaIds = new HashSet<>();
    for (ManifestEntry e : files) schemaIds.add(e.file.schemaId);
    reader.withOlderSchemas(schemaIds, table.schema().id(), table.schema().fields(), id -> table.schema(id).fields(),
        "table " + table.fullName());
    SortKeyEncoder encoder = curve == null ? null : new SortKeyEncoder(schema, orderBy, curve,
        table.options().zorderVarLengthContribution());
    try (InflightWrites.Marker inflight = InflightWrites.begin(table)) {
      JavaSparkContext jsc = JavaSparkContext.fromSparkContext(session.sparkContext());
      int readTasks = Math.max(1, Math.min(toRead.size(), session.sparkContext().defaultParallelism() * 4));
      JavaRDD<InternalRow> rows = jsc.parallelize(toRead, readTasks)
          .mapPartitions(it -> new KeyedRows(table, reader, encoder, it));
      StructType keyed = encoder == null ? schema : schema.add(KEY, DataTypes.BinaryType, false);
      Dataset<Row> df = session.internalCreateDataFrame(rows.rdd(), keyed, false);
      List<Column> order = new ArrayList<>();
      for (DataField f : table.schema().partitionFields()) order.add(functions.col(quote(f.name())));
      if (encoder != null) order.add(functions.col(KEY));
      else for (String c : orderBy) order.add(functions.col(quote(c)));
      int outputs = (int) Math.max(1, Math.min(10_000, bytes / Math.max(1, table.options().targetFileSize())));
      Column[] cols = order.toArray(new Column[0]);
      Dataset<Row> sorted = df.repartitionByRange(outputs, cols).sortWithinPartitions(cols);
      List<List<ManifestEntry>> written = SparkJobs.described(session.sparkContext(),
          "Lagoon compact " + table.fullName() + ": " + (curve == null ? "order" : curve.name().toLowerCase()) + " sort of "
              + files.size() + " files into " + outputs + " ranges",
          () -> sorted.queryExecution().toRdd().toJavaRDD().mapPartitions(it -> write(table, it)).collect());
      List<ManifestEntry> after = new ArrayList<>();
      for (List<ManifestEntry> w : written) after.addAll(w);
      RewriteFiles rewrite = table.newRewrite().replace(files, after);
      if (!vectorsRead.isEmpty()) rewrite.dropAppendVectors(vectorsRead);
      Optional<Snapshot> s = rewrite.commit();
      return CompactionOutcome.of(files, after, s.map(x -> x.id).orElse(0L));
    }
  }

  private static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  /**
   * The table as the sorted files are written: Parquet row groups of a quarter of
   * {@code target-file-size} (at least 1 MB) unless the table sets {@code parquet.block.size}, so a
   * range filter on the sort columns skips row groups inside the files it still reads.
   */
  private static FileStoreTable sortedOutput(FileStoreTable table) {
    java.util.Map<String, String> options = new java.util.LinkedHashMap<>(table.schema().options());
    if (options.containsKey("parquet.block.size")) return table;
    long rowGroup = Math.max(1L << 20, table.options().targetFileSize() / 4);
    options.put("parquet.block.size", Long.toString(rowGroup));
    return table.withOptions(options);
  }

  private static Iterator<List<ManifestEntry>> write(FileStoreTable table, Iterator<InternalRow> rows) throws IOException {
    AppendTableWriter writer = new AppendTableWriter(sortedOutput(table));
    // The sorted rows carry the key after the table's columns: the files get the columns only.
    StructType schema = SparkTypes.toSpark(table.schema().fields());
    int[] columns = new int[schema.size()];
    org.apache.spark.sql.types.DataType[] types = new org.apache.spark.sql.types.DataType[schema.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = i;
      types[i] = schema.fields()[i].dataType();
    }
    io.lagoon.core.mergetree.ProjectedRow tableColumns = new io.lagoon.core.mergetree.ProjectedRow(columns, types);
    try {
      while (rows.hasNext()) writer.write(tableColumns.replace(rows.next()));
      List<ManifestEntry> out = new ArrayList<>();
      for (ManifestEntry e : writer.finish()) {
        out.add(new ManifestEntry(FileKind.ADD, e.partition, e.bucket, e.totalBuckets, e.file.asCompacted()));
      }
      return List.of(out).iterator();
    } catch (IOException | RuntimeException e) {
      writer.abort();
      throw e;
    }
  }

  /** One file to read, with its vector. */
  // Java serialization also where Spark serializes with Kryo, which cannot rebuild records, immutable
  // lists or transient state.
  @DefaultSerializer(JavaSerializer.class)
  record FileToRead(ManifestEntry entry, DeletionVectorIndex.Ref vector) implements Serializable {
  }

  /** The rows of a task's files, each with its sort key after the columns (rows are reused, as Spark's are). */
  private static final class KeyedRows implements Iterator<InternalRow> {
    private final FileStoreTable table;
    private final DataFileReader reader;
    private final SortKeyEncoder encoder;
    private final Iterator<FileToRead> files;
    private final DeletionVectorIndex.Loader loader;
    private final GenericInternalRow key = new GenericInternalRow(1);
    private final JoinedRow joined = new JoinedRow();
    private scala.collection.Iterator<InternalRow> current;

    KeyedRows(FileStoreTable table, DataFileReader reader, SortKeyEncoder encoder, Iterator<FileToRead> files) {
      this.table = table;
      this.reader = reader;
      this.encoder = encoder;
      this.files = files;
      this.loader = new DeletionVectorIndex.Loader(table.io(), table.dir(), table.fullName());
    }

    @Override
    public boolean hasNext() {
      while (current == null || !current.hasNext()) {
        if (!files.hasNext()) return false;
        FileToRead f = files.next();
        DeletionVector dv = f.vector() == null ? null : loader.load(f.vector());
        ManifestEntry e = f.entry();
        current = reader.open(table.paths().dataFile(e), 0, e.file.fileSize, e.file.fileSize, dv, n -> { },
            e.file.schemaId);
      }
      return true;
    }

    @Override
    public InternalRow next() {
      if (!hasNext()) throw new java.util.NoSuchElementException();
      InternalRow row = current.next();
      if (encoder == null) return row;
      key.update(0, encoder.key(row));
      return joined.apply(row, key);
    }
  }
}
