package io.lagoon.spark.procedures;

import io.lagoon.core.compaction.CompactionPlanner;
import io.lagoon.core.compaction.CompactionTask;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.spark.compact.CompactionOutcome;
import io.lagoon.spark.procedures.compact.Compactions;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code rewrite_file_index(table, where)} with Paimon's meaning: the live data files of the
 * selected partitions get the indexes the table's {@code file-index.*} options now ask for, built
 * from their rows without rewriting them, as a Spark job over the files and one COMPACT commit (a
 * concurrent insert stays; a file a concurrent commit removed makes it a conflict).
 */
final class RewriteFileIndexProcedure extends SimpleProcedure {
  RewriteFileIndexProcedure() {
    super("rewrite_file_index", columns(column("result", DataTypes.BooleanType, true),
            column("files", DataTypes.IntegerType, false), column("snapshot", DataTypes.LongType, true),
            column("millis", DataTypes.LongType, false)),
        "builds the file indexes the table's file-index options ask for on existing data files, without rewriting them",
        table(), ProcedureParameter.optional("where", DataTypes.StringType, "every partition; a condition on partition columns"));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    long start = System.currentTimeMillis();
    FileStoreTable table = context.table(args, "table");
    Optional<Snapshot> base = table.snapshots().latest();
    CompactionOutcome outcome = CompactionOutcome.NOTHING;
    if (base.isPresent()) {
      Predicate<ManifestEntry> selection = Compactions.selection(context.session(), table, base.get(), null,
          args.string("where", null), null);
      List<CompactionTask> tasks = CompactionPlanner.fileIndexTasks(context.session(), table, base.get(), selection);
      outcome = Compactions.run(context.session(), table, tasks);
    }
    context.refresh(table);
    return List.of(RowFactory.create(true, outcome.filesAfter(), outcome.snapshotId() == 0 ? null : outcome.snapshotId(),
        System.currentTimeMillis() - start));
  }
}
