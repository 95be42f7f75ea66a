package io.lagoon.spark.procedures;

import io.lagoon.core.lifecycle.BranchChanges;
import io.lagoon.core.table.FileStoreTable;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;

/** {@code fast_forward(table, branch)}: the table becomes what the branch is (Paimon's fast-forward). */
final class FastForwardProcedure extends SimpleProcedure {
  FastForwardProcedure() {
    super("fast_forward", RESULT, "makes the table what the branch is: its snapshots from the branch's first on are replaced",
        table(), ProcedureParameter.required("branch", DataTypes.StringType));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    FileStoreTable table = context.table(args, "table");
    new BranchChanges(table).fastForward(args.string("branch"));
    context.refresh(table);
    return done();
  }
}
