package io.lagoon.spark.procedures;

import io.lagoon.core.lifecycle.BranchChanges;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;

/** {@code create_branch(table, branch, tag)}: an empty branch with the table's schema, or one starting at a tag. */
final class CreateBranchProcedure extends SimpleProcedure {
  CreateBranchProcedure() {
    super("create_branch", RESULT, "creates a branch, empty or at a tag; read and write it as `db.t$branch_<name>`",
        table(), ProcedureParameter.required("branch", DataTypes.StringType),
        ProcedureParameter.optional("tag", DataTypes.StringType, "an empty branch with the table's schema"));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    new BranchChanges(context.table(args, "table")).create(args.string("branch"), args.string("tag", null));
    return done();
  }
}
