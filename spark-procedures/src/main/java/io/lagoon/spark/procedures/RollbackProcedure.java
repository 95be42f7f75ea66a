package io.lagoon.spark.procedures;

import io.lagoon.core.lifecycle.Rollback;
import io.lagoon.core.table.FileStoreTable;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code rollback(table, version | snapshot | tag)}: back to a snapshot or a tag; newer snapshots,
 * the tags on them and the files only they used are deleted. {@code version} is a snapshot id when
 * it is all digits, else a tag name (Paimon's rule).
 */
final class RollbackProcedure extends SimpleProcedure {
  RollbackProcedure() {
    super("rollback", RESULT, "rolls back to a snapshot or tag, deleting newer snapshots, their tags and their files",
        table(), ProcedureParameter.optional("version", DataTypes.StringType, "give snapshot or tag instead"),
        ProcedureParameter.optional("snapshot", DataTypes.LongType, "give version or tag instead"),
        ProcedureParameter.optional("tag", DataTypes.StringType, "give version or snapshot instead"));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    int given = (args.has("version") ? 1 : 0) + (args.has("snapshot") ? 1 : 0) + (args.has("tag") ? 1 : 0);
    if (given != 1) throw args.invalid("version", "or snapshot or tag: give exactly one of them, got " + given);
    FileStoreTable table = context.table(args, "table");
    Rollback rollback = new Rollback(table);
    if (args.has("snapshot")) {
      rollback.toSnapshot(args.longValue("snapshot"));
    } else if (args.has("tag")) {
      rollback.toTag(args.string("tag"));
    } else {
      String v = args.string("version").strip();
      if (!v.isEmpty() && v.length() <= 18 && v.chars().allMatch(Character::isDigit)) rollback.toSnapshot(Long.parseLong(v));
      else rollback.toTag(v);
    }
    context.refresh(table);
    return done();
  }
}
