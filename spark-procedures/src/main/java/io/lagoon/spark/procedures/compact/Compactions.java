package io.lagoon.spark.procedures.compact;

import io.lagoon.core.compaction.CompactionTask;
import io.lagoon.core.compaction.SortKeyEncoder;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.spark.compact.CompactionJob;
import io.lagoon.spark.compact.CompactionOutcome;
import io.lagoon.spark.compact.SparkJobs;
import java.io.IOException;
import java.util.List;
import java.util.function.Predicate;
import org.apache.spark.sql.SparkSession;

/** The compaction procedure's entry points into its Spark jobs. */
public final class Compactions {
  private Compactions() {}

  /** The files a compaction may take: those of the partitions the arguments select (all when none do). */
  public static Predicate<ManifestEntry> selection(SparkSession session, FileStoreTable table, Snapshot base, String partitions,
                                                   String where, Long idleMillis) throws IOException {
    Predicate<ManifestEntry> p = partitions != null ? PartitionSelection.ofSpec(table, partitions)
        : where != null ? PartitionSelection.ofWhere(session, table, where) : PartitionSelection.all();
    if (idleMillis != null) p = p.and(PartitionSelection.idle(LiveFiles.read(table.manifests(), base), idleMillis, table));
    return p;
  }

  public static CompactionOutcome run(SparkSession session, FileStoreTable table, List<CompactionTask> tasks) throws IOException {
    return CompactionJob.run(session, table, tasks);
  }

  /** Postponed-bucket tables: gives the selected partitions' postponed rows their buckets (see {@link PostponedBucketJob}). */
  public static CompactionOutcome assignPostponed(SparkSession session, FileStoreTable table, Snapshot base,
                                                  Predicate<ManifestEntry> selection) throws IOException {
    return PostponedBucketJob.run(session, table, base, selection);
  }

  public static CompactionOutcome sort(SparkSession session, FileStoreTable table, Snapshot base,
                                       Predicate<ManifestEntry> selection, SortKeyEncoder.Curve curve, List<String> orderBy)
      throws IOException {
    return SortRewriteJob.run(session, table, base, selection, curve, orderBy);
  }
}
