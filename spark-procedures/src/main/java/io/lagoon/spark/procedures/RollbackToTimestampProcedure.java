package io.lagoon.spark.procedures;

import io.lagoon.core.lifecycle.Rollback;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;

/** {@code rollback_to_timestamp(table, timestamp)}: back to the last snapshot committed at or before it (epoch millis). */
final class RollbackToTimestampProcedure extends SimpleProcedure {
  RollbackToTimestampProcedure() {
    super("rollback_to_timestamp", columns(column("result", DataTypes.StringType, true)),
        "rolls back to the last snapshot committed at or before timestamp (epoch millis)",
        table(), ProcedureParameter.required("timestamp", DataTypes.LongType));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    FileStoreTable table = context.table(args, "table");
    Snapshot s = new Rollback(table).toTimestamp(args.longValue("timestamp"));
    context.refresh(table);
    return List.of(RowFactory.create("Success roll back to snapshot: " + s.id + " ."));
  }
}
