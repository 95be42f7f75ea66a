package io.lagoon.spark.extensions;

import io.lagoon.core.types.SparkTypes;
import io.lagoon.spark.read.InTaskRewriteScan;
import io.lagoon.spark.write.CopyOnWriteOperation;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.DynamicPruningSubquery;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.IsNotNull;
import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.expressions.SubqueryExpression;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.connector.write.RowLevelOperationTable;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructType;
import scala.runtime.AbstractPartialFunction;

/**
 * A copy-on-write MERGE whose rewrite tasks find the files with matches themselves, instead of
 * Spark's runtime group filter (a job of its own that joins the condition's columns of every
 * target file with the source before the rewrite starts). A target row can only match when its
 * column {@code k} of a conjunct {@code t.k = <source expression>} holds one of the source's values
 * of that expression and it passes the condition's conjuncts on the target alone; the target scan
 * gets those values from a dynamic pruning filter fed by the (broadcast) source, leaves out the
 * files whose range of {@code k} holds none, and its tasks read a file whole only when some row
 * passes ({@link io.lagoon.spark.read.MergeRewriteScan}). Files left out keep their rows in place,
 * which is what the rewrite would have written back for rows without a match.
 */
final class MergeFilesInTasks {
  private MergeFilesInTasks() {
  }

  /**
   * The MERGE's target side with the runtime filter on the key, the operation set to check files
   * in its tasks; null, changing nothing, when that cannot be done (no usable equality, dynamic
   * pruning switched off, a column the tasks cannot check).
   */
  static LogicalPlan target(Expression cond, LogicalPlan target, LogicalPlan source, CopyOnWriteOperation operation) {
    if (!SQLConf.get().dynamicPartitionPruningEnabled()) return null;
    scala.Option<LogicalPlan> found = target.find(n -> n instanceof DataSourceV2Relation
        && ((DataSourceV2Relation) n).table() instanceof RowLevelOperationTable);
    if (found.isEmpty()) return null;
    DataSourceV2Relation relation = (DataSourceV2Relation) found.get();
    StructType columns = SparkTypes.toSpark(operation.table().schema().fields());
    List<Expression> conjuncts = new ArrayList<>();
    Conjuncts.split(cond, conjuncts);
    // What a matching row satisfies on its own: the conjuncts on the target alone the tasks can check.
    Expression targetOnly = null;
    for (Expression c : conjuncts) {
      if (c.references().isEmpty() || !c.references().subsetOf(relation.outputSet())) continue;
      if (!c.deterministic() || SubqueryExpression.hasSubquery(c)) continue;
      if (InTaskRewriteScan.checkedColumns(columns, c) == null) continue;
      targetOnly = targetOnly == null ? c : new And(targetOnly, c);
    }
    for (Expression c : conjuncts) {
      if (!(c instanceof EqualTo) || !c.deterministic() || SubqueryExpression.hasSubquery(c)) continue;
      EqualTo eq = (EqualTo) c;
      Expression key = null;
      Expression value = null;
      if (isColumn(eq.left(), relation) && fromSource(eq.right(), source)) {
        key = eq.left();
        value = eq.right();
      } else if (isColumn(eq.right(), relation) && fromSource(eq.left(), source)) {
        key = eq.right();
        value = eq.left();
      }
      if (key == null) continue;
      Expression check = targetOnly == null ? new IsNotNull(key) : new And(new IsNotNull(key), targetOnly);
      if (!operation.filterMergeInTasks(check, ((Attribute) key).name())) continue;
      Expression pruning = new DynamicPruningSubquery(key, source,
          scala.collection.JavaConverters.asScalaBuffer(List.of(value)).toSeq(), 0, false,
          NamedExpression$.MODULE$.newExprId(), scala.Option.empty());
      return target.transformUp(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
        @Override
        public boolean isDefinedAt(LogicalPlan p) {
          return p == relation;
        }

        @Override
        public LogicalPlan apply(LogicalPlan p) {
          return p == relation ? new Filter(pruning, p) : p;
        }
      });
    }
    return null;
  }

  private static boolean isColumn(Expression e, DataSourceV2Relation relation) {
    return e instanceof Attribute && relation.outputSet().contains((Attribute) e);
  }

  private static boolean fromSource(Expression e, LogicalPlan source) {
    return !e.references().isEmpty() && e.references().subsetOf(source.outputSet());
  }
}
