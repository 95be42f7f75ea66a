package io.lagoon.spark.procedures;

import io.lagoon.core.lifecycle.TagChanges;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;

/** {@code delete_tag(table, tag)}: deletes one tag or several ({@code 'a,b'}) and the files only they kept. */
final class DeleteTagProcedure extends SimpleProcedure {
  DeleteTagProcedure() {
    super("delete_tag", RESULT, "deletes tags ('a,b' for several) and the files only they kept",
        table(), ProcedureParameter.required("tag", DataTypes.StringType));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    new TagChanges(context.table(args, "table")).delete(args.list("tag"));
    return done();
  }
}
