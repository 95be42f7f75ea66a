package io.lagoon.spark.procedures;

import io.lagoon.core.lifecycle.TagChanges;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;

/** {@code replace_tag(table, tag, snapshot, time_retained)}: points an existing tag at another snapshot. */
final class ReplaceTagProcedure extends SimpleProcedure {
  ReplaceTagProcedure() {
    super("replace_tag", RESULT, "points an existing tag at another snapshot (default: the latest)",
        table(), ProcedureParameter.required("tag", DataTypes.StringType),
        ProcedureParameter.optional("snapshot", DataTypes.LongType, "the latest snapshot"),
        ProcedureParameter.optional("time_retained", DataTypes.StringType, "tag.default-time-retained, else for ever"));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    new TagChanges(context.table(args, "table")).replace(args.string("tag"), args.longValue("snapshot"),
        CreateTagProcedure.retained(args));
    return done();
  }
}
