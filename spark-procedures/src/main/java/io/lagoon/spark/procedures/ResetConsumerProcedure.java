package io.lagoon.spark.procedures;

import io.lagoon.core.snapshot.ConsumerManager;
import io.lagoon.core.table.FileStoreTable;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code reset_consumer(table, consumer_id, [next_snapshot_id])}: sets the next snapshot a
 * consumer reads (snapshot expiry keeps it and every later one), or without one removes the consumer.
 */
final class ResetConsumerProcedure extends SimpleProcedure {
  ResetConsumerProcedure() {
    super("reset_consumer", RESULT, "sets a consumer's next snapshot (snapshot expiry keeps it), or removes the consumer",
        table(), ProcedureParameter.required("consumer_id", DataTypes.StringType),
        ProcedureParameter.optional("next_snapshot_id", DataTypes.LongType, "remove the consumer"));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    FileStoreTable table = context.table(args, "table");
    String id = args.string("consumer_id");
    if (id.isBlank() || id.contains("/") || id.contains("\\")) {
      throw args.invalid("consumer_id", "must be a non-empty name without '/', got '" + id + "'");
    }
    ConsumerManager consumers = new ConsumerManager(table.io(), table.metadataDir());
    if (!args.has("next_snapshot_id")) {
      consumers.delete(id);
      return done();
    }
    long next = args.longValue("next_snapshot_id");
    java.util.Optional<Long> latest = table.snapshots().latestId();
    java.util.Optional<Long> earliest = table.snapshots().earliestId();
    if (next < 1 || earliest.isPresent() && next < earliest.get() || next > latest.orElse(0L) + 1) {
      throw args.invalid("next_snapshot_id", "is " + next + ", but " + table.fullName() + " has snapshots "
          + (earliest.isPresent() ? earliest.get() + ".." + latest.get() : "none")
          + " (the next snapshot to read must exist, or be the one after the latest)");
    }
    consumers.reset(id, next);
    return done();
  }
}
