package io.lagoon.core.write;

import io.lagoon.core.data.BinaryRowEncoder;
import io.lagoon.core.data.BucketFunction;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.BaseFiles;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.UncommittedFiles;
import io.lagoon.core.types.PaimonType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Writes the rows of one task into an append table: one rolling writer per partition and bucket.
 * Bucket-unaware tables ({@code bucket=-1}) write everything to {@code bucket-0}; fixed-bucket
 * tables ({@code bucket=N}, with {@code bucket-key}) put each row in the bucket Paimon's hash of
 * its bucket key picks, numbering rows after the bucket's highest sequence number in the snapshot
 * the write started from (Paimon keeps a bucket's rows in that order). Returns the ADD entries the
 * driver commits.
 */
public final class AppendTableWriter {
  private final FileStoreTable table;
  private final PartitionExtractor partitions;
  private final Map<PartitionKey, Map<Integer, RollingFileWriter>> writers = new HashMap<>();
  private final List<ManifestEntry> finished = new ArrayList<>();
  private PartitionKey lastKey;
  private final int totalBuckets;
  /** The bucket key's encoder (fixed buckets only). */
  private final BinaryRowEncoder bucketKey;
  /** The live files of the snapshot the write started from (fixed buckets only). */
  private final BaseFiles base;

  /** A writer of a bucket-unaware table. */
  public AppendTableWriter(FileStoreTable table) {
    this(table, -1);
  }

  /**
   * @param baseSnapshotId the snapshot the write started from (-1 for none): a fixed-bucket
   *     table's sequence numbers and bucket count are checked against it
   */
  public AppendTableWriter(FileStoreTable table, long baseSnapshotId) {
    this.table = table;
    this.partitions = new PartitionExtractor(table.schema(), table.options().partitionDefaultName());
    int b = table.options().bucket();
    if (b > 0) {
      io.lagoon.core.catalog.AppendTableRules.requireBucketKey(table.fullName(), table.schema());
      List<PaimonType> types = new ArrayList<>();
      List<String> keys = table.schema().bucketKeys();
      int[] positions = new int[keys.size()];
      for (int i = 0; i < positions.length; i++) {
        types.add(table.schema().field(keys.get(i)).type());
        positions[i] = table.schema().fieldIndex(keys.get(i));
      }
      this.bucketKey = new BinaryRowEncoder(types, positions);
      this.base = new BaseFiles(table, baseSnapshotId);
      this.totalBuckets = b;
    } else {
      this.bucketKey = null;
      this.base = null;
      this.totalBuckets = -1;
    }
  }

  public void write(InternalRow row) throws IOException {
    PartitionKey key = partitions.partitionOf(row);
    if (lastKey != null && !lastKey.equals(key)) {
      // Input arrives sorted by partition: the previous partition is complete, close its files.
      finishPartition(lastKey);
    }
    lastKey = key;
    int bucket = bucketKey == null ? 0 : BucketFunction.bucket(bucketKey.hash(row), totalBuckets);
    Map<Integer, RollingFileWriter> buckets = writers.computeIfAbsent(key, k -> new HashMap<>());
    RollingFileWriter w = buckets.get(bucket);
    if (w == null) {
      w = new RollingFileWriter(table, table.paths().bucketDir(key.row, bucket), firstSequence(key, bucket));
      buckets.put(bucket, w);
    }
    w.write(row);
  }

  /** After the bucket's highest sequence number; a bucket-unaware table numbers each writer from 0. */
  private long firstSequence(PartitionKey key, int bucket) throws IOException {
    return base == null ? 0 : base.nextSequence(key.bytes, bucket, totalBuckets);
  }

  private void finishPartition(PartitionKey key) throws IOException {
    Map<Integer, RollingFileWriter> buckets = writers.remove(key);
    if (buckets == null) return;
    for (Map.Entry<Integer, RollingFileWriter> b : new java.util.TreeMap<>(buckets).entrySet()) {
      for (DataFileMeta f : b.getValue().finish()) {
        finished.add(new ManifestEntry(FileKind.ADD, key.bytes, b.getKey(), totalBuckets, f));
      }
    }
  }

  public List<ManifestEntry> finish() throws IOException {
    for (PartitionKey k : new ArrayList<>(writers.keySet())) finishPartition(k);
    List<ManifestEntry> out = new ArrayList<>(finished);
    finished.clear();
    return out;
  }

  /** Deletes every file this writer produced, open or closed. */
  public void abort() {
    for (Map<Integer, RollingFileWriter> buckets : writers.values()) {
      for (RollingFileWriter w : buckets.values()) w.abort();
    }
    writers.clear();
    UncommittedFiles.deleteData(table, finished);
    finished.clear();
  }
}
