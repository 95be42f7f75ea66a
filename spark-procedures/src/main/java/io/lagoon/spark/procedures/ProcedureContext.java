package io.lagoon.spark.procedures;

import io.lagoon.core.table.FileStoreTable;
import io.lagoon.spark.LagoonCatalog;
import io.lagoon.spark.LagoonTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;
import scala.collection.JavaConverters;

/** What a running procedure may use: the session, the Lagoon catalog it was called on, its tables. */
public final class ProcedureContext {
  private final SparkSession session;
  private final LagoonCatalog catalog;

  ProcedureContext(SparkSession session, LagoonCatalog catalog) {
    this.session = session;
    this.catalog = catalog;
  }

  public SparkSession session() {
    return session;
  }

  public LagoonCatalog catalog() {
    return catalog;
  }

  /**
   * The table an argument names: {@code 'db.t'}, {@code 't'} (in the session's current namespace when
   * this catalog is the current one, else {@code default}), or {@code '<this catalog>.db.t'}.
   */
  public FileStoreTable table(ProcedureArguments args, String param) {
    Identifier id = identifier(args, param);
    try {
      return ((LagoonTable) catalog.loadTable(id)).core();
    } catch (NoSuchTableException e) {
      throw args.invalid(param, "names table " + catalog.name() + "." + String.join(".", id.namespace()) + "." + id.name()
          + ", which does not exist");
    }
  }

  Identifier identifier(ProcedureArguments args, String param) {
    String text = args.string(param).strip();
    List<String> parts;
    try {
      parts = new ArrayList<>(JavaConverters.seqAsJavaList(session.sessionState().sqlParser().parseMultipartIdentifier(text)));
    } catch (Exception e) {
      throw args.invalid(param, "is not a table name: '" + text + "'");
    }
    if (parts.size() == 3 && parts.get(0).equalsIgnoreCase(catalog.name())) parts.remove(0);
    if (parts.size() == 1) parts.add(0, currentNamespace());
    if (parts.size() != 2) {
      throw args.invalid(param, "must name a table as 'database.table', got '" + text + "'");
    }
    return Identifier.of(new String[] {parts.get(0)}, parts.get(1));
  }

  private String currentNamespace() {
    var manager = session.sessionState().catalogManager();
    String[] ns = manager.currentNamespace();
    return manager.currentCatalog().name().equals(catalog.name()) && ns.length == 1 ? ns[0] : "default";
  }

  /**
   * Spark's cached plans of the table are stale after a procedure changed it. Without any cached
   * data there is nothing to refresh (Lagoon's catalog keeps no tables of its own), and Spark's
   * refresh would still resolve the table anew, as much driver time as a compaction's planning.
   */
  public void refresh(FileStoreTable table) {
    if (session.sharedState().cacheManager().isEmpty()) return;
    try {
      session.catalog().refreshTable(catalog.name() + "." + table.fullName());
    } catch (RuntimeException ignore) {
      // nothing cached, or the table is gone: nothing to refresh
    }
  }
}
