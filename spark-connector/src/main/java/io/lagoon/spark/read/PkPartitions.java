package io.lagoon.spark.read;

import io.lagoon.core.deletionvectors.DeletionVectorIndex;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.Section;
import io.lagoon.core.mergetree.read.BucketReadPlan;
import io.lagoon.core.mergetree.LevelZeroVisibility;
import io.lagoon.core.scan.DataSplit;
import io.lagoon.core.scan.ScanPlan;
import io.lagoon.core.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * Input partitions of a primary-key table scan. What each bucket reads comes from core
 * ({@link BucketReadPlan}): raw files become byte ranges packed like an append table's files;
 * merge sections of the same bucket are packed whole, in key order, into
 * {@link MergeInputPartition}s of about {@code maxBytes}. Planned {@link #perBucket}, every bucket is
 * one merge partition of all its sections, so a task holds exactly the rows of one bucket.
 */
final class PkPartitions {
  final InputPartition[] partitions;
  final long sectionsMerged;
  final long sectionsRaw;
  /** Level-0 files a deletion-vector table does not show yet. */
  final long level0Hidden;

  private PkPartitions(InputPartition[] partitions, long sectionsMerged, long sectionsRaw, long level0Hidden) {
    this.partitions = partitions;
    this.sectionsMerged = sectionsMerged;
    this.sectionsRaw = sectionsRaw;
    this.level0Hidden = level0Hidden;
  }

  boolean anyMerge() {
    return sectionsMerged > 0;
  }

  /**
   * Whether a scan can be planned one task per bucket: with fixed buckets, where no level is hidden
   * (so every file can be merged, and no deletion vectors apply), and no bucket holds more than
   * twice {@code maxBytes} (a larger one would lose the parallel read of its sections).
   */
  static boolean canPlanPerBucket(FileStoreTable table, ScanPlan plan, long maxBytes) {
    if (!table.hasPrimaryKey() || table.options().bucket() <= 0 || LevelZeroVisibility.hidden(table.schema())) {
      return false;
    }
    for (DataSplit split : plan.splits) {
      long bytes = 0;
      for (DataFileMeta f : split.files) bytes += f.fileSize;
      if (bytes > 2 * maxBytes) return false;
    }
    return true;
  }

  /** One merge partition per bucket holding every section of it; see {@link #canPlanPerBucket}. */
  static PkPartitions perBucket(FileStoreTable table, ScanPlan plan) {
    return perBucket(table, plan, null);
  }

  /** @param layout keys each task by its (partition, bucket), or null */
  static PkPartitions perBucket(FileStoreTable table, ScanPlan plan, StoragePartitioning layout) {
    List<InputPartition> out = new ArrayList<>();
    long sections = 0;
    for (DataSplit split : plan.splits) {
      BucketReadPlan read = BucketReadPlan.of(table, split.files);
      if (read.inKeyOrder.isEmpty()) continue;
      sections += read.inKeyOrder.size();
      out.add(new MergeInputPartition(new Path(table.dir(), split.bucketPath).toString(), read.inKeyOrder,
          layout == null ? null : layout.key(split)));
    }
    return new PkPartitions(out.toArray(new InputPartition[0]), sections, 0, 0);
  }

  static PkPartitions plan(FileStoreTable table, ScanPlan plan, DeletionVectorIndex vectors, long maxBytes,
                           long openCost) {
    return plan(table, plan, vectors, maxBytes, openCost, null);
  }

  /**
   * @param layout when not null, raw files are packed bucket by bucket and every task is keyed by
   *     its (partition, bucket)
   */
  static PkPartitions plan(FileStoreTable table, ScanPlan plan, DeletionVectorIndex vectors, long maxBytes,
                           long openCost, StoragePartitioning layout) {
    List<LagoonInputPartition.FileRange> ranges = new ArrayList<>();
    List<InputPartition> keyedRaw = new ArrayList<>();
    List<InputPartition> merges = new ArrayList<>();
    long merged = 0;
    long raw = 0;
    long hidden = 0;
    for (DataSplit split : plan.splits) {
      String bucketDir = new Path(table.dir(), split.bucketPath).toString();
      BucketReadPlan read = BucketReadPlan.of(table, split.files);
      org.apache.spark.sql.catalyst.InternalRow key = layout == null ? null : layout.key(split);
      hidden += read.hiddenLevel0;
      for (DataFileMeta f : read.raw) {
        raw++;
        addRanges(ranges, new Path(bucketDir, f.fileName).toString(), f, vectors, maxBytes);
      }
      List<Section> pending = new ArrayList<>();
      long pendingBytes = 0;
      for (Section s : read.merged) {
        merged++;
        long size = s.sizeInBytes() + openCost * s.files().size();
        if (!pending.isEmpty() && pendingBytes + size > maxBytes) {
          merges.add(new MergeInputPartition(bucketDir, pending, key));
          pending = new ArrayList<>();
          pendingBytes = 0;
        }
        pending.add(s);
        pendingBytes += size;
      }
      if (!pending.isEmpty()) merges.add(new MergeInputPartition(bucketDir, pending, key));
      if (key != null) {
        for (LagoonInputPartition p : FilePacking.pack(ranges, maxBytes, openCost)) keyedRaw.add(p.withKey(key));
        ranges.clear();
      }
    }
    List<InputPartition> all = new ArrayList<>(merges);
    all.addAll(keyedRaw);
    all.addAll(List.of(FilePacking.pack(ranges, maxBytes, openCost)));
    return new PkPartitions(all.toArray(new InputPartition[0]), merged, raw, hidden);
  }

  private static void addRanges(List<LagoonInputPartition.FileRange> ranges, String path, DataFileMeta f,
                                DeletionVectorIndex vectors, long maxBytes) {
    for (long start = 0; start < f.fileSize; start += maxBytes) {
      ranges.add(new LagoonInputPartition.FileRange(path, start, Math.min(maxBytes, f.fileSize - start), f.fileSize,
          vectors.refOf(f.fileName), null, f.rowCount, f.schemaId));
    }
  }
}
