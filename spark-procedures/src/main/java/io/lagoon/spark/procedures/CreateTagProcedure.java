package io.lagoon.spark.procedures;

import io.lagoon.core.lifecycle.TagChanges;
import io.lagoon.core.table.Durations;
import io.lagoon.core.table.FileStoreTable;
import java.time.Duration;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;

/** {@code create_tag(table, tag, snapshot, time_retained)}: tags a snapshot, the latest by default. */
final class CreateTagProcedure extends SimpleProcedure {
  CreateTagProcedure() {
    super("create_tag", RESULT, "tags a snapshot (default: the latest); time_retained such as '7 d' lets the tag expire",
        table(), ProcedureParameter.required("tag", DataTypes.StringType),
        ProcedureParameter.optional("snapshot", DataTypes.LongType, "the latest snapshot"),
        ProcedureParameter.optional("time_retained", DataTypes.StringType, "tag.default-time-retained, else for ever"));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    FileStoreTable table = context.table(args, "table");
    new TagChanges(table).create(args.string("tag"), args.longValue("snapshot"), retained(args));
    return done();
  }

  static Duration retained(ProcedureArguments args) {
    if (!args.has("time_retained")) return null;
    try {
      return Durations.parse(args.string("time_retained"), "time_retained");
    } catch (IllegalArgumentException e) {
      throw args.invalid("time_retained", "is not a duration such as '1 d' or '12 h': '" + args.string("time_retained") + "'");
    }
  }
}
