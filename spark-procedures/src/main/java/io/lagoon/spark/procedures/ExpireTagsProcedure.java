package io.lagoon.spark.procedures;

import io.lagoon.core.lifecycle.TagChanges;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code expire_tags(table, older_than)}: deletes the tags whose retention has passed, or with
 * {@code older_than} every tag created before that time; one row per expired tag.
 */
final class ExpireTagsProcedure extends SimpleProcedure {
  ExpireTagsProcedure() {
    super("expire_tags", columns(column("expired_tags", DataTypes.StringType, false)),
        "deletes tags whose time_retained has passed, or with older_than those created before it",
        table(), ProcedureParameter.optional("older_than", DataTypes.TimestampType, "tags whose own retention has passed"));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    TagChanges tags = new TagChanges(context.table(args, "table"));
    List<String> expired = args.has("older_than") ? tags.expireCreatedBefore(args.millis("older_than"))
        : tags.expireByTime(LocalDateTime.now());
    List<Row> out = new ArrayList<>();
    for (String t : expired) out.add(RowFactory.create(t));
    if (out.isEmpty()) out.add(RowFactory.create("No expired tags."));
    return out;
  }
}
