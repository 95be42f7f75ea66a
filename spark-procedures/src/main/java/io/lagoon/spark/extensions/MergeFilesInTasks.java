package io.lagoon.spark.extensions;

import io.lagoon.core.types.SparkTypes;
import io.lagoon.spark.read.InTaskRewriteScan;
import io.lagoon.spark.write.CopyOnWriteOperation;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.IsNotNull;
import org.apache.spark.sql.catalyst.expressions.SubqueryExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.connector.write.RowLevelOperationTable;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructType;

/**
 * A copy-on-write MERGE whose reads of the target take the source's values of a column the
 * condition equates with the source, {@code t.k = <source expression>}: a target row can only
 * match when its {@code k} is one of them. A dynamic pruning filter fed by the (broadcast) source
 * gives the values to
 * <ul>
 *   <li>the rewrite scan ({@link io.lagoon.spark.read.MergeRewriteScan}), instead of Spark's group
 *       filter (a job of its own that joins the condition's columns of every target file with the
 *       source before the rewrite starts): it leaves out files whose range of {@code k} holds none,
 *       and its tasks read a file whole only when some row passes, its {@code k} among the values
 *       and the condition's conjuncts on the target alone true. Files left out keep their rows in
 *       place, which is what the rewrite would have written back for rows without a match;</li>
 *   <li>the read of the target's condition columns the NOT MATCHED rows are found with
 *       ({@link io.lagoon.spark.read.MergeKeysScan}), which returns only rows holding one.</li>
 * </ul>
 */
final class MergeFilesInTasks {
  private MergeFilesInTasks() {
  }

  /** A conjunct {@code key = value}: a plain target column and an expression of the source. */
  record KeyEquality(Attribute key, Expression value) {
  }

  /**
   * The first equality of the condition whose target column the reads can look up in the source's
   * values (an exact-equality type, no CHAR/VARCHAR padding); null for none, or when dynamic pruning
   * is switched off.
   */
  static KeyEquality find(Expression cond, LogicalPlan target, LogicalPlan source, CopyOnWriteOperation operation) {
    if (!SQLConf.get().dynamicPartitionPruningEnabled()) return null;
    DataSourceV2Relation relation = relation(target);
    if (relation == null) return null;
    StructType columns = SparkTypes.toSpark(operation.table().schema().fields());
    List<Expression> conjuncts = new ArrayList<>();
    Conjuncts.split(cond, conjuncts);
    for (Expression c : conjuncts) {
      if (!(c instanceof EqualTo) || !c.deterministic() || SubqueryExpression.hasSubquery(c)) continue;
      EqualTo eq = (EqualTo) c;
      KeyEquality found = null;
      if (isColumn(eq.left(), relation) && fromSource(eq.right(), source)) {
        found = new KeyEquality((Attribute) eq.left(), eq.right());
      } else if (isColumn(eq.right(), relation) && fromSource(eq.left(), source)) {
        found = new KeyEquality((Attribute) eq.right(), eq.left());
      }
      if (found == null || !InTaskRewriteScan.keyTypeSupported(found.key().dataType())) continue;
      if (InTaskRewriteScan.checkedColumns(columns, new IsNotNull(found.key())) == null) continue;
      return found;
    }
    return null;
  }

  /**
   * The MERGE's target side, its rewrite scan set to find the files with matches in its tasks and
   * given the source's values of the key; null, changing nothing, when the operation cannot.
   */
  static LogicalPlan target(KeyEquality eq, Expression cond, LogicalPlan target, LogicalPlan source,
                            CopyOnWriteOperation operation) {
    DataSourceV2Relation relation = relation(target);
    StructType columns = SparkTypes.toSpark(operation.table().schema().fields());
    List<Expression> conjuncts = new ArrayList<>();
    Conjuncts.split(cond, conjuncts);
    // What a matching row satisfies on its own: the conjuncts on the target alone the tasks can check.
    Expression check = new IsNotNull(eq.key());
    for (Expression c : conjuncts) {
      if (c.references().isEmpty() || !c.references().subsetOf(relation.outputSet())) continue;
      if (!c.deterministic() || SubqueryExpression.hasSubquery(c)) continue;
      if (InTaskRewriteScan.checkedColumns(columns, c) == null) continue;
      check = new And(check, c);
    }
    if (!operation.filterMergeInTasks(check, eq.key().name())) return null;
    return SourceValuesFilter.over(target, relation, eq.key(), eq.value(), source);
  }

  private static DataSourceV2Relation relation(LogicalPlan target) {
    scala.Option<LogicalPlan> found = target.find(n -> n instanceof DataSourceV2Relation
        && ((DataSourceV2Relation) n).table() instanceof RowLevelOperationTable);
    return found.isEmpty() ? null : (DataSourceV2Relation) found.get();
  }

  private static boolean isColumn(Expression e, DataSourceV2Relation relation) {
    return e instanceof Attribute && relation.outputSet().contains((Attribute) e);
  }

  private static boolean fromSource(Expression e, LogicalPlan source) {
    return !e.references().isEmpty() && e.references().subsetOf(source.outputSet());
  }
}
