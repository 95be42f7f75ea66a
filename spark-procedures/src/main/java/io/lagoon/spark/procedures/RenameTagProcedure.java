package io.lagoon.spark.procedures;

import io.lagoon.core.lifecycle.TagChanges;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;

/** {@code rename_tag(table, tag, target_tag)}. */
final class RenameTagProcedure extends SimpleProcedure {
  RenameTagProcedure() {
    super("rename_tag", RESULT, "renames a tag", table(), ProcedureParameter.required("tag", DataTypes.StringType),
        ProcedureParameter.required("target_tag", DataTypes.StringType));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    new TagChanges(context.table(args, "table")).rename(args.string("tag"), args.string("target_tag"));
    return done();
  }
}
