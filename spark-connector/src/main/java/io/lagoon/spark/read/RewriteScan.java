package io.lagoon.spark.read;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.table.FileStoreTable;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.SupportsRuntimeV2Filtering;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * The scan of a copy-on-write DELETE, UPDATE or MERGE on an append table. It reads whole data
 * files, every row of each (the rewrite writes back the rows that do not change), and Spark narrows
 * it at run time to the files in which its subquery found matching rows ({@code _file IN (...)}),
 * so only those are read and replaced. Files that subquery found but this scan did not plan
 * mean a commit came in between: the statement fails as a conflict rather than skip them.
 */
public final class RewriteScan extends LagoonScan implements SupportsRuntimeV2Filtering {
  RewriteScan(FileStoreTable table, StructType tableSchema, StructType required, List<String> metadata,
              List<Filter> filters) {
    super(table, tableSchema, required, metadata, filters, null, true);
  }

  @Override
  public NamedReference[] filterAttributes() {
    return new NamedReference[] {Expressions.column(MetadataColumns.FILE)};
  }

  @Override
  public void filter(Predicate[] predicates) {
    Set<String> files = null;
    for (Predicate p : predicates) {
      Set<String> these = filesOf(p);
      if (these == null) continue; // not a file filter: reading more files is always safe
      if (files == null) files = these;
      else files.retainAll(these);
    }
    if (files == null) return;
    // Spark's subquery found the files on its own, later scan of the table: a file of it this scan
    // did not plan means a commit came in between, and the statement can no longer tell which of
    // its own files hold matches (a file rewritten meanwhile would silently be skipped).
    Set<String> planned = plannedFiles();
    for (String f : files) {
      if (!planned.contains(f)) {
        throw new CommitConflictException("Conflict: a concurrent commit to " + table().fullName()
            + " changed its files while this statement looked for the files to rewrite (" + f + " is not in snapshot "
            + snapshot().map(x -> x.id).orElse(0L) + " the statement read). Nothing was written; run it again.");
      }
    }
    keepFiles(files);
  }

  /** The file paths of {@code _file IN (...)} or {@code _file = ...}; null for any other predicate. */
  private static Set<String> filesOf(Predicate p) {
    if (!p.name().equals("IN") && !p.name().equals("=")) return null;
    Expression[] children = p.children();
    if (children.length == 0 || !(children[0] instanceof NamedReference)) return null;
    String[] names = ((NamedReference) children[0]).fieldNames();
    if (names.length != 1 || !names[0].equals(MetadataColumns.FILE)) return null;
    Set<String> out = new HashSet<>();
    for (int i = 1; i < children.length; i++) {
      if (!(children[i] instanceof Literal)) return null;
      Object v = ((Literal<?>) children[i]).value();
      if (v != null) out.add(v.toString());
    }
    return out;
  }
}
