package io.lagoon.spark.procedures;

import io.lagoon.core.snapshot.ConsumerManager;
import io.lagoon.core.table.FileStoreTable;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code clear_consumers(table, [including_consumers], [excluding_consumers])}: removes the
 * consumers whose ids match the first pattern (default: all) and not the second.
 */
final class ClearConsumersProcedure extends SimpleProcedure {
  ClearConsumersProcedure() {
    super("clear_consumers", RESULT, "removes the consumers matching including_consumers and not excluding_consumers",
        table(), ProcedureParameter.optional("including_consumers", DataTypes.StringType, "every consumer"),
        ProcedureParameter.optional("excluding_consumers", DataTypes.StringType, "none"));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    FileStoreTable table = context.table(args, "table");
    Pattern including = pattern(args, "including_consumers");
    Pattern excluding = pattern(args, "excluding_consumers");
    ConsumerManager consumers = new ConsumerManager(table.io(), table.metadataDir());
    for (String id : consumers.all().keySet()) {
      if (including != null && !including.matcher(id).matches()) continue;
      if (excluding != null && excluding.matcher(id).matches()) continue;
      consumers.delete(id);
    }
    return done();
  }

  private static Pattern pattern(ProcedureArguments args, String name) {
    if (!args.has(name)) return null;
    try {
      return Pattern.compile(args.string(name));
    } catch (PatternSyntaxException e) {
      throw args.invalid(name, "is not a regular expression: " + e.getDescription());
    }
  }
}
