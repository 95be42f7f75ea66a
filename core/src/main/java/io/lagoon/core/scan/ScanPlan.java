package io.lagoon.core.scan;

import io.lagoon.core.snapshot.Snapshot;
import java.util.List;

/** The result of planning a scan: what to read, and how much the metadata let us skip. */
public final class ScanPlan {
  public final Snapshot snapshot;
  public final List<DataSplit> splits;
  public final long filesScanned;
  public final long filesSkipped;
  public final long manifestsSkipped;
  /** Of {@link #filesSkipped}, those their partition ruled out. */
  public final long filesSkippedByPartition;
  /** Of {@link #filesSkipped}, those their min/max stats (key stats on primary-key tables) ruled out. */
  public final long filesSkippedByStats;
  /** Of {@link #filesSkipped}, those only their file indexes ruled out (their stats could not). */
  public final long filesSkippedByIndex;

  public ScanPlan(Snapshot snapshot, List<DataSplit> splits, long filesScanned, long filesSkipped, long manifestsSkipped) {
    this(snapshot, splits, filesScanned, filesSkipped, manifestsSkipped, 0, 0, 0);
  }

  public ScanPlan(Snapshot snapshot, List<DataSplit> splits, long filesScanned, long filesSkipped, long manifestsSkipped,
                  long filesSkippedByPartition, long filesSkippedByStats, long filesSkippedByIndex) {
    this.snapshot = snapshot;
    this.splits = splits;
    this.filesScanned = filesScanned;
    this.filesSkipped = filesSkipped;
    this.manifestsSkipped = manifestsSkipped;
    this.filesSkippedByPartition = filesSkippedByPartition;
    this.filesSkippedByStats = filesSkippedByStats;
    this.filesSkippedByIndex = filesSkippedByIndex;
  }

  /** The same plan over other splits (the counts stay those of planning). */
  public ScanPlan withSplits(List<DataSplit> other) {
    return new ScanPlan(snapshot, other, filesScanned, filesSkipped, manifestsSkipped, filesSkippedByPartition,
        filesSkippedByStats, filesSkippedByIndex);
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
