package io.lagoon.spark.procedures;

import io.lagoon.core.compaction.CompactionPlanner;
import io.lagoon.core.compaction.CompactionTask;
import io.lagoon.core.compaction.SortKeyEncoder;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.KeyValueFileReader;
import io.lagoon.core.mergetree.compact.BucketCompactor;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.DataFilePaths;
import io.lagoon.core.table.Durations;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.TableOptions;
import io.lagoon.spark.compact.CompactionOutcome;
import io.lagoon.spark.procedures.compact.Compactions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code compact(table, partitions | where, compact_strategy, order_strategy, order_by, options,
 * partition_idle_time)} with Paimon's meaning: a primary-key table's buckets are compacted (full:
 * into one sorted run at the top level; minor: universal compaction); an append table's small
 * files and files with deleted rows are merged toward {@code target-file-size}; with an order
 * strategy, a bucket-unaware append table's selected partitions are rewritten sorted by the
 * z-order, Hilbert or plain order of {@code order_by}. Runs as a Spark job over the buckets and
 * commits once; a compaction with nothing to do commits nothing.
 */
final class CompactProcedure extends SimpleProcedure {
  CompactProcedure() {
    super("compact", columns(column("result", DataTypes.BooleanType, true), column("files_before", DataTypes.IntegerType, false),
            column("files_after", DataTypes.IntegerType, false), column("bytes_before", DataTypes.LongType, false),
            column("bytes_after", DataTypes.LongType, false), column("snapshot", DataTypes.LongType, true),
            column("millis", DataTypes.LongType, false)),
        "compacts buckets (primary key: full or universal) or small append files; with an order strategy rewrites "
            + "append partitions sorted by z-order, Hilbert or plain order of order_by",
        table(), ProcedureParameter.optional("partitions", DataTypes.StringType, "every partition; 'p=1,q=a;p=2'"),
        ProcedureParameter.optional("where", DataTypes.StringType, "every partition; a condition on partition columns"),
        ProcedureParameter.optional("compact_strategy", DataTypes.StringType, "'full'; or 'minor'"),
        ProcedureParameter.optional("order_strategy", DataTypes.StringType, "'none'; or 'zorder', 'hilbert', 'order'"),
        ProcedureParameter.optional("order_by", DataTypes.StringType, "columns to sort by, 'a,b'"),
        ProcedureParameter.optional("options", DataTypes.StringType, "table options for this run, 'k=v,k2=v2'"),
        ProcedureParameter.optional("partition_idle_time", DataTypes.StringType,
            "every partition; only those without a new file for this long, e.g. '1 d'"));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    long start = System.currentTimeMillis();
    FileStoreTable table = withOptions(context.table(args, "table"), args);
    if (args.has("partitions") && args.has("where")) {
      throw args.invalid("partitions", "and 'where' cannot both be given");
    }
    String strategy = args.string("compact_strategy", "full").strip().toLowerCase(Locale.ROOT);
    if (!strategy.equals("full") && !strategy.equals("minor")) {
      throw args.invalid("compact_strategy", "must be 'full' or 'minor', got '" + args.string("compact_strategy") + "'");
    }
    String order = args.string("order_strategy", "none").strip().toLowerCase(Locale.ROOT);
    if (!List.of("none", "zorder", "hilbert", "order").contains(order)) {
      throw args.invalid("order_strategy", "must be 'zorder', 'hilbert', 'order' or 'none', got '" + args.string("order_strategy") + "'");
    }
    List<String> orderBy = args.has("order_by") ? args.list("order_by") : List.of();
    if (!order.equals("none")) {
      if (table.hasPrimaryKey()) {
        throw args.invalid("order_strategy", "'" + order + "' cannot sort primary-key table " + table.fullName()
            + ": its files are sorted by the key (as in Paimon, sort compaction is for bucket-unaware append tables); "
            + "leave order_strategy out to compact it");
      }
      if (table.options().bucket() > 0) {
        throw args.invalid("order_strategy", "'" + order + "' cannot sort " + table.fullName() + ": it has fixed buckets "
            + "(as in Paimon, sort compaction is for bucket-unaware append tables)");
      }
      if (orderBy.isEmpty()) throw args.invalid("order_by", "is needed with order_strategy '" + order + "'");
      checkColumns(table, orderBy, args);
    } else if (!orderBy.isEmpty()) {
      throw args.invalid("order_by", "needs an order_strategy ('zorder', 'hilbert' or 'order')");
    }
    if (table.hasPrimaryKey()) {
      io.lagoon.core.catalog.PrimaryKeyTableRules.requireCompactable(table.fullName(), table.schema());
      if (table.options().bucket() == DataFilePaths.POSTPONE_BUCKET && !table.options().changelogProducer().equals("none")) {
        throw new UnsupportedOperationException("Cannot compact postponed-bucket table " + table.fullName() + ": it has '"
            + io.lagoon.core.table.TableOptions.CHANGELOG_PRODUCER + "'='" + table.options().changelogProducer()
            + "', and Lagoon does not write the changelog of rows it gives buckets; compact it with Paimon");
      }
    }
    Optional<Snapshot> base = table.snapshots().latest();
    CompactionOutcome outcome = CompactionOutcome.NOTHING;
    if (base.isPresent()) {
      Predicate<ManifestEntry> selection = Compactions.selection(context.session(), table, base.get(),
          args.string("partitions", null), args.string("where", null), idleMillis(args));
      if (!order.equals("none")) {
        SortKeyEncoder.Curve curve = order.equals("order") ? null
            : order.equals("zorder") ? SortKeyEncoder.Curve.ZORDER : SortKeyEncoder.Curve.HILBERT;
        outcome = Compactions.sort(context.session(), table, base.get(), selection, curve, orderBy);
      } else {
        if (table.hasPrimaryKey() && table.options().bucket() == DataFilePaths.POSTPONE_BUCKET) {
          // Postponed rows first get buckets (an APPEND: they become visible); a full compaction
          // then merges the buckets as on any primary-key table.
          outcome = Compactions.assignPostponed(context.session(), table, base.get(), selection);
          base = table.snapshots().latest();
          if (!strategy.equals("full")) {
            context.refresh(table);
            return result(outcome, start);
          }
        }
        List<CompactionTask> tasks = table.hasPrimaryKey()
            ? CompactionPlanner.keyValueTasks(table, base.get(), selection,
                strategy.equals("full") ? BucketCompactor.Mode.FULL : BucketCompactor.Mode.UNIVERSAL,
                KeyValueFileReader.buildForCompaction(context.session(), table))
            : CompactionPlanner.appendTasks(context.session(), table, base.get(), selection, strategy.equals("full"));
        outcome = outcome.then(Compactions.run(context.session(), table, tasks));
      }
    }
    context.refresh(table);
    return result(outcome, start);
  }

  private static List<Row> result(CompactionOutcome outcome, long start) {
    return List.of(RowFactory.create(true, outcome.filesBefore(), outcome.filesAfter(), outcome.bytesBefore(),
        outcome.bytesAfter(), outcome.snapshotId() == 0 ? null : outcome.snapshotId(), System.currentTimeMillis() - start));
  }

  private static void checkColumns(FileStoreTable table, List<String> columns, ProcedureArguments args) {
    List<String> names = new ArrayList<>();
    for (io.lagoon.core.types.DataField f : table.schema().fields()) names.add(f.name());
    for (String c : columns) {
      if (names.stream().noneMatch(n -> n.equalsIgnoreCase(c))) {
        throw args.invalid("order_by", "names column '" + c + "', which " + table.fullName() + " does not have; its columns are "
            + names);
      }
    }
  }

  private static Long idleMillis(ProcedureArguments args) {
    if (!args.has("partition_idle_time")) return null;
    try {
      return Durations.parse(args.string("partition_idle_time"), "partition_idle_time").toMillis();
    } catch (IllegalArgumentException e) {
      throw args.invalid("partition_idle_time", "is not a duration such as '1 d' or '12 h': '"
          + args.string("partition_idle_time") + "'");
    }
  }

  /** {@code options => 'k=v,k2=v2'}: the table with those options for this run (checked like CREATE TABLE's). */
  private static FileStoreTable withOptions(FileStoreTable table, ProcedureArguments args) {
    if (!args.has("options")) return table;
    Map<String, String> options = new LinkedHashMap<>(table.schema().options());
    for (String pair : args.list("options")) {
      int eq = pair.indexOf('=');
      if (eq <= 0) throw args.invalid("options", "must be 'key=value' pairs separated by ',', got '" + pair + "'");
      options.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
    }
    try {
      TableOptions.validate(options);
    } catch (IllegalArgumentException e) {
      throw args.invalid("options", e.getMessage());
    }
    return table.withOptions(options);
  }
}
