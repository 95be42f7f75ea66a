package io.lagoon.spark.read;

import io.lagoon.core.deletionvectors.DeletionVectorIndex;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.CloseableIterator;
import io.lagoon.core.mergetree.KeyComparator;
import io.lagoon.core.mergetree.KeySections;
import io.lagoon.core.mergetree.KeyValueFileReader;
import io.lagoon.core.mergetree.KeyValueLayout;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.mergetree.engine.MergeFunctions;
import io.lagoon.core.mergetree.read.MergeTreeReader;
import io.lagoon.core.read.DataFileReader;
import io.lagoon.core.scan.IncrementalFiles;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.SparkTypes;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * An incremental read between two tags: the difference between the two tagged states, bucket by
 * bucket over the files that differ ({@link IncrementalFiles#diff}). On a primary-key table each
 * side's files are merged and compared key by key: a key only the newer side holds is {@code +I},
 * a changed one {@code -U} (old) and {@code +U} (new), a key only the older side holds {@code -D};
 * the table's own read returns the {@code +I} and {@code +U} rows, {@code $audit_log} all of them.
 * On an append table, the rows of the files only the newer state holds ({@code +I}).
 */
final class TagDiffScan implements Scan, Batch {
  private final FileStoreTable table;
  private final boolean withKind;
  private final Snapshot from;
  private final Snapshot to;

  TagDiffScan(FileStoreTable table, boolean withKind, Snapshot from, Snapshot to) {
    this.table = table;
    this.withKind = withKind;
    this.from = from;
    this.to = to;
  }

  @Override
  public StructType readSchema() {
    return withKind ? AuditLogScan.schemaOf(table) : SparkTypes.toSpark(table.schema().fields());
  }

  @Override public Batch toBatch() { return this; }
  @Override public String description() { return table.fullName() + " (diff of snapshots " + from.id + " and " + to.id + ")"; }

  /** A primary-key bucket's files only the older state holds, and those only the newer holds. */
  private static final class Part implements InputPartition {
    final String bucketDir;
    final List<DataFileMeta> before;
    final List<DataFileMeta> after;

    Part(String bucketDir, List<DataFileMeta> before, List<DataFileMeta> after) {
      this.bucketDir = bucketDir;
      this.before = before;
      this.after = after;
    }
  }

  /** Planned once: the reader factory needs the files' schemas, Spark the partitions. */
  private InputPartition[] planned;

  @Override
  public synchronized InputPartition[] planInputPartitions() {
    if (planned == null) planned = plan();
    return planned;
  }

  private InputPartition[] plan() {
    try {
      boolean pk = table.hasPrimaryKey();
      DeletionVectorIndex vectors = pk ? DeletionVectorIndex.empty() : DeletionVectorIndex.forRead(table, to);
      List<InputPartition> out = new ArrayList<>();
      for (IncrementalFiles.BucketDiff d : IncrementalFiles.diff(table, from, to)) {
        String dir = table.paths().bucketDir(d.partition(), d.bucket()).toString();
        if (pk) {
          out.add(new Part(dir, d.before(), d.after()));
        } else {
          for (DataFileMeta f : d.after()) {
            AuditLogScan.Part p = new AuditLogScan.Part(dir);
            p.add(f, vectors.refOf(f.fileName));
            out.add(p);
          }
        }
      }
      return out.toArray(new InputPartition[0]);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan the diff of " + table.fullName() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    SparkSession spark = SparkSession.active();
    if (table.hasPrimaryKey()) return new Factory(table, withKind, KeyValueFileReader.build(spark, table, null), null);
    List<DataFileMeta> files = new ArrayList<>();
    for (InputPartition p : planInputPartitions()) files.addAll(((AuditLogScan.Part) p).files);
    DataFileReader reader = AuditLogScan.appendReader(spark, table, files);
    return new Factory(table, withKind, null, reader);
  }

  private static final class Factory implements PartitionReaderFactory, Serializable {
    private final FileStoreTable table;
    private final boolean withKind;
    private final KeyValueFileReader records;
    private final DataFileReader rows;

    Factory(FileStoreTable table, boolean withKind, KeyValueFileReader records, DataFileReader rows) {
      this.table = table;
      this.withKind = withKind;
      this.records = records;
      this.rows = rows;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
      if (records == null) return new AuditLogScan.Appended(table, rows, (AuditLogScan.Part) partition, withKind);
      return new KeyDiff(table.schema(), records, (Part) partition, withKind);
    }
  }

  /** Both sides of a primary-key bucket merged and compared key by key. */
  private static final class KeyDiff implements PartitionReader<InternalRow> {
    private final CloseableIterator<KeyValue> before;
    private final CloseableIterator<KeyValue> after;
    private final KeyComparator keys;
    private final DataType[] types;
    private final boolean withKind;
    private final ArrayDeque<InternalRow> ready = new ArrayDeque<>();
    private KeyValue b;
    private KeyValue a;
    private boolean advanceBefore = true;
    private boolean advanceAfter = true;
    private InternalRow row;

    KeyDiff(TableSchema schema, KeyValueFileReader source, Part p, boolean withKind) {
      List<PaimonType> keyTypes = new KeyValueLayout(schema).keyTypes();
      this.keys = new KeyComparator(keyTypes);
      this.before = reader(schema, source, keyTypes).read(new Path(p.bucketDir), KeySections.split(p.before, keyTypes));
      this.after = reader(schema, source, keyTypes).read(new Path(p.bucketDir), KeySections.split(p.after, keyTypes));
      this.types = AuditLogScan.types(schema);
      this.withKind = withKind;
    }

    private MergeTreeReader reader(TableSchema schema, KeyValueFileReader source, List<PaimonType> keyTypes) {
      return new MergeTreeReader(source, new KeyComparator(keyTypes),
          MergeFunctions.recordOrder(schema.options(), schema.fields()),
          MergeFunctions.create(schema.options(), schema.fields(), schema.primaryKeys()));
    }

    @Override
    public boolean next() {
      while (ready.isEmpty()) {
        // A side's current record stays valid until that side advances: advance only what was used.
        if (advanceBefore) b = before.hasNext() ? before.next() : null;
        if (advanceAfter) a = after.hasNext() ? after.next() : null;
        advanceBefore = false;
        advanceAfter = false;
        if (a == null && b == null) return false;
        int c = a == null ? -1 : b == null ? 1 : keys.compare(b.key(), a.key());
        if (c < 0) {
          emit("-D", b);
          advanceBefore = true;
        } else if (c > 0) {
          emit("+I", a);
          advanceAfter = true;
        } else {
          if (!sameValue(b.value(), a.value())) {
            emit("-U", b);
            emit("+U", a);
          }
          advanceBefore = true;
          advanceAfter = true;
        }
      }
      row = ready.poll();
      return true;
    }

    private void emit(String kind, KeyValue kv) {
      // The table's own read shows what the newer state holds; the audit log every change.
      if (!withKind && (kind.equals("-D") || kind.equals("-U"))) return;
      ready.add(AuditLogScan.withKind(withKind ? kind : null, kv.value(), types).copy());
    }

    private boolean sameValue(InternalRow x, InternalRow y) {
      for (int i = 0; i < types.length; i++) {
        Object p = x.isNullAt(i) ? null : x.get(i, types[i]);
        Object q = y.isNullAt(i) ? null : y.get(i, types[i]);
        if (p instanceof byte[] && q instanceof byte[] ? !Arrays.equals((byte[]) p, (byte[]) q) : !Objects.equals(p, q)) {
          return false;
        }
      }
      return true;
    }

    @Override public InternalRow get() { return row; }

    @Override
    public void close() {
      before.close();
      after.close();
    }
  }
}
