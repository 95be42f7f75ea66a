package io.lagoon.spark.compact;

import io.lagoon.core.compaction.CompactionResult;
import io.lagoon.core.manifest.ManifestEntry;
import java.util.List;

/** What a compaction did: files and bytes it replaced and wrote, and the snapshot it committed (0: none). */
public record CompactionOutcome(int filesBefore, int filesAfter, long bytesBefore, long bytesAfter, long snapshotId) {
  public static final CompactionOutcome NOTHING = new CompactionOutcome(0, 0, 0, 0, 0);

  public static CompactionOutcome of(List<CompactionResult> results, long snapshotId) {
    int fb = 0;
    int fa = 0;
    long bb = 0;
    long ba = 0;
    for (CompactionResult r : results) {
      fb += r.before().size();
      fa += r.after().size();
      bb += r.bytesBefore();
      ba += r.bytesAfter();
    }
    return new CompactionOutcome(fb, fa, bb, ba, snapshotId);
  }

  public static CompactionOutcome of(List<ManifestEntry> before, List<ManifestEntry> after, long snapshotId) {
    long bb = 0;
    long ba = 0;
    for (ManifestEntry e : before) bb += e.file.fileSize;
    for (ManifestEntry e : after) ba += e.file.fileSize;
    return new CompactionOutcome(before.size(), after.size(), bb, ba, snapshotId);
  }

  /** This outcome followed by another step's: files and bytes of both, the later snapshot if it committed one. */
  public CompactionOutcome then(CompactionOutcome next) {
    return new CompactionOutcome(filesBefore + next.filesBefore, filesAfter + next.filesAfter,
        bytesBefore + next.bytesBefore, bytesAfter + next.bytesAfter,
        next.snapshotId != 0 ? next.snapshotId : snapshotId);
  }
}
