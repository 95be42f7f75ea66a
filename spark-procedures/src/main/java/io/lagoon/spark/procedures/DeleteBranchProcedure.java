package io.lagoon.spark.procedures;

import io.lagoon.core.lifecycle.BranchChanges;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;

/** {@code delete_branch(table, branch)}: deletes branches ({@code 'a,b'} for several) and the files only they used. */
final class DeleteBranchProcedure extends SimpleProcedure {
  DeleteBranchProcedure() {
    super("delete_branch", RESULT, "deletes branches ('a,b' for several) and the files only they used",
        table(), ProcedureParameter.required("branch", DataTypes.StringType));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    new BranchChanges(context.table(args, "table")).delete(args.list("branch"));
    return done();
  }
}
