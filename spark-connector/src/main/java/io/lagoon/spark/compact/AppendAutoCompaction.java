package io.lagoon.spark.compact;

import io.lagoon.core.compaction.CompactionPlanner;
import io.lagoon.core.compaction.CompactionTask;
import io.lagoon.core.manifest.BucketId;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.SparkSession;

/**
 * After an INSERT into an append table commits: the buckets it wrote that now hold
 * {@code compaction.min.file-num} or more small files (or files with deleted rows) are compacted
 * right away, as one more Spark job and one COMPACT snapshot, so a stream of small inserts does not
 * pile up small files. {@code write-only} turns it off, as in Paimon. The INSERT has committed by
 * then: a compaction that fails (a concurrent writer changed the same files) is left for the next
 * write or the compact procedure and does not fail the statement.
 */
public final class AppendAutoCompaction {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AppendAutoCompaction.class);

  private AppendAutoCompaction() {}

  public static void afterWrite(FileStoreTable table, List<ManifestEntry> written) {
    if (table.hasPrimaryKey() || table.options().writeOnly() || written.isEmpty()) return;
    try {
      Set<BucketId> touched = new HashSet<>();
      for (ManifestEntry e : written) touched.add(e.bucketId());
      Optional<Snapshot> latest = table.snapshots().latest();
      if (latest.isEmpty()) return;
      SparkSession session = SparkSession.active();
      List<CompactionTask> tasks = CompactionPlanner.appendTasks(session, table, latest.get(),
          e -> touched.contains(e.bucketId()), false);
      if (!tasks.isEmpty()) CompactionJob.run(session, table, tasks);
    } catch (Exception e) {
      LOG.warn("Compaction of {} after a write did not complete (the write is committed): {}", table.fullName(), e.toString());
    }
  }
}
