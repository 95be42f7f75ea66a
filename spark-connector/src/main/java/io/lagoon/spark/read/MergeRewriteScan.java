package io.lagoon.spark.read;

import io.lagoon.core.table.FileStoreTable;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.SupportsRuntimeV2Filtering;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * The scan of a copy-on-write MERGE whose condition equates a target column with the source (see
 * Lagoon's SQL extensions): at run time it takes the source's values of that column
 * ({@code key IN (...)}), leaves out on the driver the files whose range of the column holds none
 * of them, and its tasks read a file only when some row of it holds one (and passes the
 * condition's target-only part). A file left out has no row the source matches; the commit keeps
 * it. So Spark's group-filter job (the target joined with the source before the rewrite) is not run.
 */
public final class MergeRewriteScan extends InTaskRewriteScan implements SupportsRuntimeV2Filtering {
  /** The source's values of the key, once the runtime filter gave them; null until then. */
  private Set<Object> values;
  private FileMatchProbe probe;

  MergeRewriteScan(FileStoreTable table, StructType tableSchema, StructType required, List<String> metadata,
                   List<Filter> filters, Expression condition, List<Attribute> conditionColumns, String key) {
    super(table, tableSchema, required, metadata, filters, condition, conditionColumns, key);
  }

  @Override
  public NamedReference[] filterAttributes() {
    return new NamedReference[] {Expressions.column(key())};
  }

  @Override
  public synchronized void filter(Predicate[] predicates) {
    Set<Object> given = SourceKeys.narrow(this, key(), predicates, values);
    if (given == values) return;
    values = given;
    ship();
  }

  @Override
  synchronized void probeBuilt(FileMatchProbe built) {
    probe = built;
    ship();
  }

  /** Hands the values to the tasks' probe, when both exist (Spark builds the readers before it filters). */
  private void ship() {
    if (probe != null && values != null) probe.sourceKeys().ship(values);
  }
}
