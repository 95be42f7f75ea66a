package io.lagoon.spark.procedures;

import io.lagoon.core.lifecycle.ExpireSnapshots;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code expire_snapshots(table, retain_max, retain_min, older_than, max_deletes)}: arguments left
 * out come from the table's options ({@code snapshot.num-retained.max/min}, {@code
 * snapshot.time-retained}, {@code snapshot.expire.limit}), as in Paimon 1.x; a {@code retain_max}
 * below the table's minimum lowers the minimum with it.
 */
final class ExpireSnapshotsProcedure extends SimpleProcedure {
  ExpireSnapshotsProcedure() {
    super("expire_snapshots", columns(column("deleted_snapshots_count", DataTypes.IntegerType, false)),
        "expires old snapshots and deletes the files no kept snapshot, tag or branch uses",
        table(), ProcedureParameter.optional("retain_max", DataTypes.IntegerType, "snapshot.num-retained.max"),
        ProcedureParameter.optional("retain_min", DataTypes.IntegerType, "snapshot.num-retained.min (10)"),
        ProcedureParameter.optional("older_than", DataTypes.TimestampType, "now - snapshot.time-retained (1 h)"),
        ProcedureParameter.optional("max_deletes", DataTypes.IntegerType, "snapshot.expire.limit (50)"));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    ExpireSnapshots expire = new ExpireSnapshots(context.table(args, "table"));
    try {
      if (args.has("retain_min")) expire.retainMin(args.integer("retain_min"));
      if (args.has("retain_max")) {
        int max = args.integer("retain_max");
        if (!args.has("retain_min") && max >= 1 && max < expire.retainMin()) expire.retainMin(max);
        expire.retainMax(max);
      }
      if (args.has("max_deletes")) expire.maxDeletes(args.integer("max_deletes"));
      if (args.has("older_than")) expire.olderThan(args.millis("older_than"));
      return List.of(RowFactory.create(expire.expire()));
    } catch (IllegalArgumentException e) {
      throw ProcedureArguments.refuse(this, e.getMessage());
    }
  }
}
