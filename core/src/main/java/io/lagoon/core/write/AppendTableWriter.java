package io.lagoon.core.write;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.PartitionPaths;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;

/**
 * Writes the rows of one task into an append table: one rolling writer per partition, all in
 * {@code bucket-0} (append tables are bucket-unaware, {@code bucket=-1}). Returns the ADD entries
 * the driver commits.
 */
public final class AppendTableWriter {
  private final FileStoreTable table;
  private final int[] partitionIndexes;
  private final List<PaimonType> partitionTypes;
  private final DataType[] partitionSparkTypes;
  private final List<DataField> partitionFields;
  private final Map<PartitionKey, RollingFileWriter> writers = new HashMap<>();
  private final List<ManifestEntry> finished = new ArrayList<>();
  private PartitionKey lastKey;
  private final int bucket;
  private final int totalBuckets;

  public AppendTableWriter(FileStoreTable table) {
    this.table = table;
    this.partitionFields = table.schema().partitionFields();
    this.partitionIndexes = new int[partitionFields.size()];
    this.partitionTypes = new ArrayList<>();
    this.partitionSparkTypes = new DataType[partitionFields.size()];
    for (int i = 0; i < partitionIndexes.length; i++) {
      partitionIndexes[i] = table.schema().fieldIndex(partitionFields.get(i).name());
      partitionTypes.add(partitionFields.get(i).type());
      partitionSparkTypes[i] = io.lagoon.core.types.SparkTypes.toSpark(partitionFields.get(i).type());
    }
    int b = table.options().bucket();
    if (b > 0) {
      throw new UnsupportedOperationException("Table " + table.fullName() + " has 'bucket'='" + b
          + "' without a primary key; fixed-bucket append tables are not supported yet (use 'bucket'='-1')");
    }
    this.bucket = 0;
    this.totalBuckets = -1;
  }

  public void write(InternalRow row) throws IOException {
    PartitionKey key = partitionOf(row);
    if (lastKey != null && !lastKey.equals(key)) {
      // Input arrives sorted by partition: the previous partition is complete, close its file.
      finishPartition(lastKey);
    }
    lastKey = key;
    RollingFileWriter w = writers.get(key);
    if (w == null) {
      String partPath = PartitionPaths.path(partitionFields, key.row, table.options().partitionDefaultName());
      w = new RollingFileWriter(table, table.bucketDir(partPath, bucket));
      writers.put(key, w);
    }
    w.write(row);
  }

  private PartitionKey partitionOf(InternalRow row) {
    if (partitionIndexes.length == 0) return PartitionKey.EMPTY;
    Object[] values = new Object[partitionIndexes.length];
    for (int i = 0; i < values.length; i++) {
      int idx = partitionIndexes[i];
      Object v = row.isNullAt(idx) ? null : row.get(idx, partitionSparkTypes[i]);
      values[i] = v instanceof org.apache.spark.unsafe.types.UTF8String
          ? ((org.apache.spark.unsafe.types.UTF8String) v).clone() : v;
    }
    GenericInternalRow prow = new GenericInternalRow(values);
    return new PartitionKey(prow, BinaryRows.serialize(prow, partitionTypes));
  }

  private void finishPartition(PartitionKey key) throws IOException {
    RollingFileWriter w = writers.remove(key);
    if (w == null) return;
    for (DataFileMeta f : w.finish()) finished.add(new ManifestEntry(FileKind.ADD, key.bytes, bucket, totalBuckets, f));
  }

  public List<ManifestEntry> finish() throws IOException {
    for (PartitionKey k : new ArrayList<>(writers.keySet())) finishPartition(k);
    List<ManifestEntry> out = new ArrayList<>(finished);
    finished.clear();
    return out;
  }

  /** Deletes every file this writer produced, open or closed. */
  public void abort() {
    for (RollingFileWriter w : writers.values()) w.abort();
    writers.clear();
    for (ManifestEntry e : finished) {
      String partPath = PartitionPaths.path(partitionFields,
          BinaryRows.deserialize(e.partition, partitionTypes), table.options().partitionDefaultName());
      try {
        table.io().delete(new org.apache.hadoop.fs.Path(table.bucketDir(partPath, bucket), e.file.fileName), false);
      } catch (IOException ignore) {
        // an orphan at worst
      }
    }
    finished.clear();
  }

  /** A partition, keyed by its serialized bytes. */
  private static final class PartitionKey {
    static final PartitionKey EMPTY = new PartitionKey(new GenericInternalRow(0), io.lagoon.core.manifest.SimpleStats.EMPTY_ROW);
    final InternalRow row;
    final byte[] bytes;

    PartitionKey(InternalRow row, byte[] bytes) {
      this.row = row;
      this.bytes = bytes;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof PartitionKey && java.util.Arrays.equals(bytes, ((PartitionKey) o).bytes);
    }

    @Override
    public int hashCode() {
      return java.util.Arrays.hashCode(bytes);
    }
  }
}
