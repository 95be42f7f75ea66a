package io.lagoon.spark.extensions;

import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.DynamicPruningSubquery;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.execution.datasources.v2.V2ScanRelationPushDown;
import scala.runtime.AbstractPartialFunction;

/**
 * A dynamic pruning filter on a read of the target of a row-level statement: Spark evaluates the
 * source's values of an expression and hands them to the target's scan as {@code key IN (...)} at
 * run time (reusing the source's broadcast where the plan has one); the scan decides what to leave out.
 */
final class SourceValuesFilter {
  private SourceValuesFilter() {
  }

  /** {@code plan} with {@code relation} under the filter: its {@code key} among the source's values of {@code value}. */
  static LogicalPlan over(LogicalPlan plan, LogicalPlan relation, Attribute key, Expression value, LogicalPlan source) {
    Expression pruning = new DynamicPruningSubquery(key, scanned(source),
        scala.collection.JavaConverters.asScalaBuffer(List.of(value)).toSeq(), 0, false,
        NamedExpression$.MODULE$.newExprId(), scala.Option.empty());
    return plan.transformUp(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
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

  /**
   * The source with its table reads planned as scans. The rules that add these filters run before
   * Spark turns table reads into scans, which it does only in the main plan, not in a subquery's;
   * a source that reads a table would then fail to plan ("No plan for RelationV2").
   */
  private static LogicalPlan scanned(LogicalPlan source) {
    boolean unscanned = source.find(n -> n instanceof DataSourceV2Relation).isDefined();
    return unscanned ? V2ScanRelationPushDown.apply(source) : source;
  }
}
