package io.lagoon.spark.read;

import io.lagoon.core.deletionvectors.DeletionVectorIndex;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.KeyValueLayout;
import io.lagoon.core.mergetree.engine.MergeEngine;
import io.lagoon.core.mergetree.engine.MergeOptions;
import io.lagoon.core.mergetree.Section;
import io.lagoon.core.mergetree.read.SectionRead;
import io.lagoon.core.scan.DataSplit;
import io.lagoon.core.scan.ScanPlan;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.PaimonType;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * Input partitions of a primary-key table scan. Each bucket's files are split into sections:
 * raw sections become byte ranges packed like an append table's files; merge sections of the same
 * bucket are packed whole, in key order, into {@link MergeInputPartition}s of about
 * {@code maxBytes}.
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

  static PkPartitions plan(FileStoreTable table, ScanPlan plan, DeletionVectorIndex vectors, long maxBytes,
                           long openCost) {
    List<PaimonType> keyTypes = new KeyValueLayout(table.schema()).keyTypes();
    MergeEngine engine = new MergeOptions(table.schema().options()).engine();
    boolean dvMode = io.lagoon.core.mergetree.LevelZeroVisibility.hidden(table.schema());
    List<LagoonInputPartition.FileRange> ranges = new ArrayList<>();
    List<InputPartition> merges = new ArrayList<>();
    long merged = 0;
    long raw = 0;
    long hidden = 0;
    for (DataSplit split : plan.splits) {
      String bucketDir = new Path(table.dir(), split.bucketPath).toString();
      List<DataFileMeta> files = new ArrayList<>();
      for (DataFileMeta f : split.files) {
        if (dvMode && f.level == 0) hidden++; // not visible until compacted, as in Paimon
        else files.add(f);
      }
      if (dvMode) {
        // Deletion-vector mode: above level 0 a key lives in one file, its older copies marked in
        // vectors, so every file is read as it is, with its vector, and nothing is merged.
        for (DataFileMeta f : files) {
          if (f.deleteRowCount == null || f.deleteRowCount != 0) {
            throw new UnsupportedOperationException("Data file " + f.fileName + " of " + table.fullName()
                + " (level " + f.level + ") holds retract records in deletion-vector mode, which this Lagoon "
                + "version cannot read without merging");
          }
          raw++;
          addRanges(ranges, new Path(bucketDir, f.fileName).toString(), f, vectors, maxBytes);
        }
        continue;
      }
      List<Section> pending = new ArrayList<>();
      long pendingBytes = 0;
      for (SectionRead s : SectionRead.plan(files, keyTypes, engine)) {
        if (s.raw) {
          raw++;
          DataFileMeta f = s.section.files().get(0);
          addRanges(ranges, new Path(bucketDir, f.fileName).toString(), f, vectors, maxBytes);
          continue;
        }
        merged++;
        long size = s.section.sizeInBytes() + openCost * s.section.files().size();
        if (!pending.isEmpty() && pendingBytes + size > maxBytes) {
          merges.add(new MergeInputPartition(bucketDir, pending));
          pending = new ArrayList<>();
          pendingBytes = 0;
        }
        pending.add(s.section);
        pendingBytes += size;
      }
      if (!pending.isEmpty()) merges.add(new MergeInputPartition(bucketDir, pending));
    }
    List<InputPartition> all = new ArrayList<>(merges);
    all.addAll(List.of(FilePacking.pack(ranges, maxBytes, openCost)));
    return new PkPartitions(all.toArray(new InputPartition[0]), merged, raw, hidden);
  }

  private static void addRanges(List<LagoonInputPartition.FileRange> ranges, String path, DataFileMeta f,
                                DeletionVectorIndex vectors, long maxBytes) {
    for (long start = 0; start < f.fileSize; start += maxBytes) {
      ranges.add(new LagoonInputPartition.FileRange(path, start, Math.min(maxBytes, f.fileSize - start), f.fileSize,
          vectors.refOf(f.fileName)));
    }
  }
}
