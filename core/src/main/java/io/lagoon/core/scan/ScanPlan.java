package io.lagoon.core.scan;

import io.lagoon.core.snapshot.Snapshot;
import java.util.List;
import java.util.Map;

/** The result of planning a scan: what to read, and how much the metadata let us skip. */
public final class ScanPlan {
  public final Snapshot snapshot;
  public final List<DataSplit> splits;
  public final long filesScanned;
  public final long filesSkipped;
  public final long manifestsSkipped;
  /** Of {@link #filesSkipped}, those their partition ruled out. */
  public final long filesSkippedByPartition;
  /** Of {@link #filesSkipped}, those their value min/max stats ruled out (append tables). */
  public final long filesSkippedByStats;
  /** Of {@link #filesSkipped}, those the range of keys they hold ruled out (primary-key tables). */
  public final long filesSkippedByKeyRange;
  /** Of {@link #filesSkipped}, those only their file indexes ruled out (their stats could not). */
  public final long filesSkippedByIndex;
  /**
   * By data file name, the rows its bitmap or bit-sliced indexes admit, where they rule out some
   * (append tables): the reader leaves the others out as it leaves deleted rows out.
   */
  public final Map<String, org.roaringbitmap.RoaringBitmap> rowSelections;

  public ScanPlan(Snapshot snapshot, List<DataSplit> splits, long filesScanned, long filesSkipped, long manifestsSkipped) {
    this(snapshot, splits, filesScanned, filesSkipped, manifestsSkipped, 0, 0, 0, 0, Map.of());
  }

  public ScanPlan(Snapshot snapshot, List<DataSplit> splits, long filesScanned, long filesSkipped, long manifestsSkipped,
                  long filesSkippedByPartition, long filesSkippedByStats, long filesSkippedByKeyRange,
                  long filesSkippedByIndex, Map<String, org.roaringbitmap.RoaringBitmap> rowSelections) {
    this.snapshot = snapshot;
    this.splits = splits;
    this.filesScanned = filesScanned;
    this.filesSkipped = filesSkipped;
    this.manifestsSkipped = manifestsSkipped;
    this.filesSkippedByPartition = filesSkippedByPartition;
    this.filesSkippedByStats = filesSkippedByStats;
    this.filesSkippedByKeyRange = filesSkippedByKeyRange;
    this.filesSkippedByIndex = filesSkippedByIndex;
    this.rowSelections = rowSelections;
  }

  /** The same plan over other splits (the counts stay those of planning). */
  public ScanPlan withSplits(List<DataSplit> other) {
    return new ScanPlan(snapshot, other, filesScanned, filesSkipped, manifestsSkipped, filesSkippedByPartition,
        filesSkippedByStats, filesSkippedByKeyRange, filesSkippedByIndex, rowSelections);
  }

  /** Rows the planned files hold that their row selections leave out. */
  public long rowsSkippedByIndex() {
    long n = 0;
    for (DataSplit s : splits) {
      for (io.lagoon.core.manifest.DataFileMeta f : s.files) {
        org.roaringbitmap.RoaringBitmap kept = rowSelections.get(f.fileName);
        if (kept != null) n += f.rowCount - kept.getLongCardinality();
      }
    }
    return n;
  }

  public long rowCount() {
    long n = 0;
    for (DataSplit s : splits) n += s.rowCount();
    return n;
  }

  public long sizeInBytes() {
    long n = 0;
    for (DataSplit s : splits) n += s.sizeInBytes();
    return n;
  }
}
