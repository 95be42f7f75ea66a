package io.lagoon.spark.procedures;

import io.lagoon.core.lifecycle.TagChanges;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.snapshot.Tag;
import io.lagoon.core.table.FileStoreTable;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code create_tag_from_timestamp(table, tag, timestamp, time_retained)}: tags the first snapshot
 * committed at or after {@code timestamp} (epoch millis), looking at tagged snapshots too, as Paimon does.
 */
final class CreateTagFromTimestampProcedure extends SimpleProcedure {
  CreateTagFromTimestampProcedure() {
    super("create_tag_from_timestamp", columns(column("tagName", DataTypes.StringType, true),
            column("snapshot", DataTypes.LongType, true), column("commit_time", DataTypes.LongType, true),
            column("watermark", DataTypes.StringType, true)),
        "tags the first snapshot committed at or after timestamp (epoch millis)",
        table(), ProcedureParameter.required("tag", DataTypes.StringType),
        ProcedureParameter.required("timestamp", DataTypes.LongType),
        ProcedureParameter.optional("time_retained", DataTypes.StringType, "tag.default-time-retained, else for ever"));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    FileStoreTable table = context.table(args, "table");
    long ts = args.longValue("timestamp");
    Optional<Snapshot> live = table.timeTravel().atOrAfter(ts);
    Snapshot chosen = live.orElse(null);
    for (Tag t : table.tags().all()) {
      if (t.snapshot.timeMillis >= ts) {
        if (chosen == null || t.snapshot.timeMillis < chosen.timeMillis) chosen = t.snapshot;
        break;
      }
    }
    if (chosen == null) {
      throw args.invalid("timestamp", "is after every snapshot of " + table.fullName() + ": no snapshot was committed at or after "
          + java.time.Instant.ofEpochMilli(ts) + "; " + table.timeTravel().available());
    }
    new TagChanges(table).create(args.string("tag"), chosen.id, CreateTagProcedure.retained(args));
    return List.of(RowFactory.create(args.string("tag"), chosen.id, chosen.timeMillis, String.valueOf(chosen.watermark)));
  }
}
