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
  /** Of {@link #filesSkipped}, those only their file indexes ruled out (their stats could not). */
  public final long filesSkippedByIndex;

  public ScanPlan(Snapshot snapshot, List<DataSplit> splits, long filesScanned, long filesSkipped, long manifestsSkipped) {
    this(snapshot, splits, filesScanned, filesSkipped, manifestsSkipped, 0);
  }

  public ScanPlan(Snapshot snapshot, List<DataSplit> splits, long filesScanned, long filesSkipped, long manifestsSkipped,
                  long filesSkippedByIndex) {
    this.snapshot = snapshot;
    this.splits = splits;
    this.filesScanned = filesScanned;
    this.filesSkipped = filesSkipped;
    this.manifestsSkipped = manifestsSkipped;
    this.filesSkippedByIndex = filesSkippedByIndex;
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
