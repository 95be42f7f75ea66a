package io.lagoon.core.operation;

import io.lagoon.core.commit.CommitBase;
import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.DataFilePaths;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The check that a postponed-bucket table ({@code 'bucket'='-2'}) keeps one bucket count per
 * partition. A batch write picks the count of a partition from its base snapshot, or the default
 * for a partition that has no bucketed files yet; a commit since then (another writer, or a
 * compaction giving postponed rows their buckets) may have picked another count for the same new
 * partition. Committing both would hash one key to two buckets, so the later commit fails instead.
 */
final class BucketCounts {
  private BucketCounts() {}

  static void check(FileStoreTable table, CommitBase base, List<ManifestEntry> added) throws IOException {
    if (table.options().bucket() != DataFilePaths.POSTPONE_BUCKET) return;
    Map<ByteBuffer, Integer> mine = new HashMap<>();
    for (ManifestEntry e : added) {
      if (e.bucket >= 0) mine.putIfAbsent(ByteBuffer.wrap(e.partition), e.totalBuckets);
    }
    if (mine.isEmpty()) return;
    for (ManifestEntry live : base.live()) {
      if (live.bucket < 0) continue;
      Integer count = mine.get(ByteBuffer.wrap(live.partition));
      if (count != null && count != live.totalBuckets) {
        throw new CommitConflictException("Concurrent change of " + table.fullName() + ": a commit since this write "
            + "read the table gave a partition " + live.totalBuckets + " buckets, where this write used " + count
            + "; nothing was committed, run the statement again");
      }
    }
  }
}
