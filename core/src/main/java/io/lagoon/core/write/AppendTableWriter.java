package io.lagoon.core.write;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.UncommittedFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Writes the rows of one task into an append table: one rolling writer per partition, all in
 * {@code bucket-0} (append tables are bucket-unaware, {@code bucket=-1}). Returns the ADD entries
 * the driver commits.
 */
public final class AppendTableWriter {
  private final FileStoreTable table;
  private final PartitionExtractor partitions;
  private final Map<PartitionKey, RollingFileWriter> writers = new HashMap<>();
  private final List<ManifestEntry> finished = new ArrayList<>();
  private PartitionKey lastKey;
  private final int bucket;
  private final int totalBuckets;

  public AppendTableWriter(FileStoreTable table) {
    this.table = table;
    this.partitions = new PartitionExtractor(table.schema(), table.options().partitionDefaultName());
    int b = table.options().bucket();
    if (b > 0) {
      throw new UnsupportedOperationException("Table " + table.fullName() + " has 'bucket'='" + b
          + "' without a primary key; fixed-bucket append tables are not supported yet (use 'bucket'='-1')");
    }
    this.bucket = 0;
    this.totalBuckets = -1;
  }

  public void write(InternalRow row) throws IOException {
    PartitionKey key = partitions.partitionOf(row);
    if (lastKey != null && !lastKey.equals(key)) {
      // Input arrives sorted by partition: the previous partition is complete, close its file.
      finishPartition(lastKey);
    }
    lastKey = key;
    RollingFileWriter w = writers.get(key);
    if (w == null) {
      w = new RollingFileWriter(table, table.paths().bucketDir(key.row, bucket));
      writers.put(key, w);
    }
    w.write(row);
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
    UncommittedFiles.deleteData(table, finished);
    finished.clear();
  }
}
