package io.lagoon.spark.compact;

import io.lagoon.core.compaction.CompactionResult;
import io.lagoon.core.compaction.CompactionTask;
import io.lagoon.core.operation.RewriteFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.InflightWrites;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.sql.SparkSession;

/**
 * Runs compaction tasks as one Spark job, one Spark task each, on the executors (the task list is
 * shipped once per job, {@link BroadcastList}, as the tasks share their table); the driver then
 * commits every result in one COMPACT snapshot, which validates that every file replaced is still
 * live (a concurrent insert adds files and is never lost; a concurrent rewrite of the same files
 * makes this one fail, its files deleted).
 */
public final class CompactionJob {
  private CompactionJob() {}

  public static CompactionOutcome run(SparkSession session, FileStoreTable table, List<CompactionTask> tasks) throws IOException {
    if (tasks.isEmpty()) return CompactionOutcome.NOTHING;
    try (InflightWrites.Marker inflight = InflightWrites.begin(table)) {
      JavaSparkContext jsc = JavaSparkContext.fromSparkContext(session.sparkContext());
      BroadcastList<CompactionTask> shipped = BroadcastList.of(jsc, tasks);
      List<Integer> indices = new ArrayList<>();
      for (int i = 0; i < tasks.size(); i++) indices.add(i);
      List<CompactionResult> results;
      try {
        results = SparkJobs.described(session.sparkContext(),
            "Lagoon compact " + table.fullName() + ": " + tasks.size() + " bucket tasks",
            () -> jsc.parallelize(indices, indices.size()).map(new RunTask(shipped)).collect());
      } finally {
        shipped.destroy();
      }
      List<CompactionResult> done = new ArrayList<>();
      for (CompactionResult r : results) if (r != null) done.add(r);
      if (done.isEmpty()) return CompactionOutcome.NOTHING;
      RewriteFiles rewrite = table.newRewrite();
      for (CompactionResult r : done) r.addTo(rewrite);
      Optional<Snapshot> s = rewrite.commit();
      return CompactionOutcome.of(done, s.map(x -> x.id).orElse(0L));
    }
  }

  /** One Spark task: runs the compaction task of its index, from the job's broadcast list. */
  private static final class RunTask implements Function<Integer, CompactionResult> {
    private final BroadcastList<CompactionTask> tasks;

    RunTask(BroadcastList<CompactionTask> tasks) {
      this.tasks = tasks;
    }

    @Override
    public CompactionResult call(Integer index) {
      CompactionTask task = tasks.get(index);
      try {
        return task.run().orElse(null);
      } catch (IOException e) {
        throw new UncheckedIOException("Compaction of " + task.describe() + " failed: " + e.getMessage(), e);
      }
    }
  }
}
