package io.lagoon.spark.procedures.compact;

import io.lagoon.core.compaction.PostponedBucketPlan;
import io.lagoon.core.data.BinaryRowEncoder;
import io.lagoon.core.data.BucketFunction;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.CloseableIterator;
import io.lagoon.core.mergetree.KeyValueFileReader;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.ProjectedRow;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.mergetree.write.KeyValueCommit;
import io.lagoon.core.mergetree.write.KeyValueTableWriter;
import io.lagoon.core.mergetree.write.KeyValueWriteResult;
import io.lagoon.core.read.DataFileReader;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.InflightWrites;
import io.lagoon.core.table.UncommittedFiles;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.SparkTypes;
import io.lagoon.spark.compact.CompactionOutcome;
import io.lagoon.spark.compact.SparkJobs;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
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
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Gives the rows of a postponed-bucket table ({@code 'bucket'='-2'}) their buckets: every
 * selected {@code bucket-postpone} file is read (Avro as Paimon 1.2+ writes them, or the table's
 * format), each record gets Paimon's bucket of its bucket key over its partition's bucket count
 * ({@link PostponedBucketPlan}), Spark clusters the records by partition and bucket and sorts them
 * by key and then replay order (file creation order, then position in the file), and each task
 * writes its buckets as a batch INSERT into the table would ({@code KeyBuckets.postponed}): new
 * sequence numbers after the bucket's highest, level-0 files, equal keys merged by the table's
 * merge engine in replay order, then write-triggered compaction unless {@code write-only}. One APPEND snapshot adds the files and removes the
 * postponed ones; the compaction follows in a COMPACT snapshot.
 */
final class PostponedBucketJob {
  private static final String PARTITION = "__lagoon_partition";
  private static final String BUCKET = "__lagoon_bucket";
  private static final String ORDER = "__lagoon_order";
  private static final String POSITION = "__lagoon_position";
  private static final String KIND = "__lagoon_kind";

  private PostponedBucketJob() {}

  static CompactionOutcome run(SparkSession session, FileStoreTable table, Snapshot base,
                               Predicate<ManifestEntry> selection) throws IOException {
    PostponedBucketPlan plan = PostponedBucketPlan.of(table.fullName(), LiveFiles.read(table.manifests(), base), selection,
        table.options().postponeDefaultBucketNum());
    if (plan.isEmpty()) return CompactionOutcome.NOTHING;
    Set<String> formats = new HashSet<>();
    for (PostponedBucketPlan.File f : plan.files()) formats.add(DataFileReader.formatOf(f.entry().file.fileName));
    formats.remove(null);
    KeyValueFileReader reader = KeyValueFileReader.build(session, table, null, formats);
    KeyValueSource compaction = table.options().writeOnly() ? null : KeyValueFileReader.buildForCompaction(session, table);
    StructType columns = SparkTypes.toSpark(table.schema().fields());
    StructType replayed = columns.add(PARTITION, DataTypes.BinaryType, false).add(BUCKET, DataTypes.IntegerType, false)
        .add(ORDER, DataTypes.IntegerType, false)
        .add(POSITION, DataTypes.LongType, false).add(KIND, DataTypes.ByteType, false);
    Set<String> partitionBuckets = new HashSet<>();
    for (PostponedBucketPlan.File f : plan.files()) {
      for (int b = 0; b < f.buckets(); b++) partitionBuckets.add(Arrays.toString(f.entry().partition) + "/" + b);
    }
    int tasks = Math.max(1, Math.min(partitionBuckets.size(), session.sessionState().conf().numShufflePartitions()));
    List<KeyValueWriteResult> results = new ArrayList<>();
    try (InflightWrites.Marker inflight = InflightWrites.begin(table)) {
      JavaSparkContext jsc = JavaSparkContext.fromSparkContext(session.sparkContext());
      int readTasks = Math.max(1, Math.min(plan.files().size(), session.sparkContext().defaultParallelism() * 4));
      long baseId = base.id;
      JavaRDD<InternalRow> rows = jsc.parallelize(plan.files(), readTasks)
          .mapPartitions(it -> new Replayed(table, reader, it));
      Dataset<Row> df = session.internalCreateDataFrame(rows.rdd(), replayed, false);
      List<Column> sort = new ArrayList<>(List.of(functions.col(PARTITION), functions.col(BUCKET)));
      for (String k : table.schema().trimmedPrimaryKeys()) sort.add(functions.col("`" + k.replace("`", "``") + "`"));
      sort.add(functions.col(ORDER));
      sort.add(functions.col(POSITION));
      Dataset<Row> sorted = df.repartition(tasks, functions.col(PARTITION), functions.col(BUCKET))
          .sortWithinPartitions(sort.toArray(new Column[0]));
      int arity = columns.size();
      results.addAll(SparkJobs.described(session.sparkContext(),
          "Lagoon compact " + table.fullName() + ": " + plan.files().size() + " postponed files into buckets",
          () -> sorted.queryExecution().toRdd().toJavaRDD()
              .mapPartitions(it -> write(table, baseId, compaction, arity, columns, it)).collect()));
      KeyValueCommit.commitPostponed(table, results, plan.entries(), baseId, compaction);
    } catch (IOException | RuntimeException e) {
      List<ManifestEntry> written = new ArrayList<>();
      for (KeyValueWriteResult r : results) {
        written.addAll(r.newFiles);
        written.addAll(r.compactAfter);
      }
      UncommittedFiles.deleteUnreferenced(table, written, base.id);
      throw e;
    }
    List<ManifestEntry> after = new ArrayList<>();
    for (KeyValueWriteResult r : results) after.addAll(r.newFiles);
    long latest = table.snapshots().latestId().orElse(0L);
    return CompactionOutcome.of(plan.entries(), after, latest);
  }

  /**
   * One task's buckets, written by one {@link KeyValueTableWriter} whose buckets are the postponed
   * table's own ({@code KeyBuckets.postponed}: each partition's count in the base snapshot, as the
   * plan counted them); a failure deletes everything the task wrote.
   */
  private static Iterator<KeyValueWriteResult> write(FileStoreTable table, long baseId, KeyValueSource compaction,
                                                     int arity, StructType columns, Iterator<InternalRow> rows)
      throws IOException {
    int[] positions = new int[arity];
    DataType[] types = new DataType[arity];
    for (int i = 0; i < arity; i++) {
      positions[i] = i;
      types[i] = columns.fields()[i].dataType();
    }
    ProjectedRow value = new ProjectedRow(positions, types);
    KeyValueTableWriter writer = new KeyValueTableWriter(table, baseId, compaction);
    try {
      while (rows.hasNext()) {
        InternalRow row = rows.next();
        writer.write(value.replace(row).copy(), row.getByte(arity + 4));
      }
      return List.of(writer.finish()).iterator();
    } catch (IOException | RuntimeException e) {
      writer.abort();
      throw e;
    }
  }

  /**
   * The records of a task's postponed files, in replay order, each as its table row followed by
   * partition, bucket, replay position of its file, position in the file, and kind.
   */
  private static final class Replayed implements Iterator<InternalRow> {
    private final FileStoreTable table;
    private final KeyValueSource reader;
    private final Iterator<PostponedBucketPlan.File> files;
    private final BinaryRowEncoder bucketKeys;
    private final GenericInternalRow extra = new GenericInternalRow(5);
    private final JoinedRow joined = new JoinedRow();
    private PostponedBucketPlan.File file;
    private CloseableIterator<KeyValue> current;
    private long position;

    Replayed(FileStoreTable table, KeyValueSource reader, Iterator<PostponedBucketPlan.File> files) {
      this.table = table;
      this.reader = reader;
      this.files = files;
      TableSchema schema = table.schema();
      List<PaimonType> keyTypes = new ArrayList<>();
      int[] keyPositions = new int[schema.bucketKeys().size()];
      for (int i = 0; i < keyPositions.length; i++) {
        String k = schema.bucketKeys().get(i);
        keyTypes.add(schema.field(k).type());
        keyPositions[i] = schema.fieldIndex(k);
      }
      this.bucketKeys = new BinaryRowEncoder(keyTypes, keyPositions);
    }

    @Override
    public boolean hasNext() {
      while (current == null || !current.hasNext()) {
        if (current != null) current.close();
        current = null;
        if (!files.hasNext()) return false;
        file = files.next();
        ManifestEntry e = file.entry();
        current = reader.open(table.paths().dataFile(e).getParent(), e.file);
        position = 0;
      }
      return true;
    }

    @Override
    public InternalRow next() {
      if (!hasNext()) throw new java.util.NoSuchElementException();
      KeyValue kv = current.next();
      InternalRow value = kv.value();
      extra.update(0, file.entry().partition);
      extra.update(1, BucketFunction.bucket(bucketKeys.hash(value), file.buckets()));
      extra.update(2, file.order());
      extra.update(3, position++);
      extra.update(4, kv.rowKind());
      return joined.apply(value, extra);
    }
  }
}
