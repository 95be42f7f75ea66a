package io.lagoon.spark.procedures;

import io.lagoon.core.lifecycle.RemoveOrphanFiles;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.spark.LagoonTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code remove_orphan_files(table, older_than, dry_run)}: deletes files no snapshot, tag or branch
 * uses that are older than {@code older_than} (default one day ago) and no write in flight made;
 * {@code 'db.*'} cleans every table of a database. Answers as Paimon 0.9 does: one row per file
 * (its path), at most 200, after a first row with the total when there are more.
 */
final class RemoveOrphanFilesProcedure extends SimpleProcedure {
  static final int SHOWN = 200;

  RemoveOrphanFilesProcedure() {
    super("remove_orphan_files", columns(column("result", DataTypes.StringType, true)),
        "deletes files nothing uses, older than older_than (default: 1 day ago); 'db.*' for a whole database",
        table(), ProcedureParameter.optional("older_than", DataTypes.TimestampType, "one day ago"),
        ProcedureParameter.optional("dry_run", DataTypes.BooleanType, "false"));
  }

  @Override
  public List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception {
    List<Path> removed = new ArrayList<>();
    for (FileStoreTable table : tables(context, args)) {
      RemoveOrphanFiles r = new RemoveOrphanFiles(table).dryRun(args.bool("dry_run", false));
      if (args.has("older_than")) r.olderThan(args.millis("older_than"));
      removed.addAll(r.run());
    }
    List<Row> out = new ArrayList<>();
    if (removed.size() > SHOWN) out.add(RowFactory.create("Total " + removed.size() + " files, only " + SHOWN + " lines are displayed."));
    for (int i = 0; i < Math.min(SHOWN, removed.size()); i++) out.add(RowFactory.create(removed.get(i).toUri().getPath()));
    return out;
  }

  private static List<FileStoreTable> tables(ProcedureContext context, ProcedureArguments args) throws Exception {
    String text = args.string("table").strip();
    if (!text.endsWith(".*")) return List.of(context.table(args, "table"));
    String db = text.substring(0, text.length() - 2);
    if (db.startsWith(context.catalog().name() + ".")) db = db.substring(context.catalog().name().length() + 1);
    List<FileStoreTable> out = new ArrayList<>();
    Identifier[] ids;
    try {
      ids = context.catalog().listTables(new String[] {db});
    } catch (org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException e) {
      throw args.invalid("table", "names database " + db + ", which does not exist");
    }
    for (Identifier id : ids) out.add(((LagoonTable) context.catalog().loadTable(id)).core());
    return out;
  }
}
