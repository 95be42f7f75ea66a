package io.lagoon.spark.extensions;

import io.lagoon.spark.write.CopyOnWriteOperation;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.SubqueryExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.ReplaceData;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.connector.write.RowLevelOperation;
import org.apache.spark.sql.connector.write.RowLevelOperationTable;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;

/**
 * A copy-on-write DELETE or UPDATE hands its condition to the rewrite's tasks, which find the
 * files with matches themselves (each evaluates the condition on a file's condition columns
 * before reading it whole), instead of Spark's runtime group filter, a job of its own that reads
 * those columns of every file before the rewrite starts. Conditions with subqueries (and any that
 * reads more than plain table columns, see the scan) keep Spark's group filter.
 */
public final class RewriteFilesInTasks extends Rule<LogicalPlan> {
  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (!(plan instanceof ReplaceData)) return plan;
    ReplaceData replace = (ReplaceData) plan;
    if (!(replace.table() instanceof DataSourceV2Relation)) return plan;
    Object table = ((DataSourceV2Relation) replace.table()).table();
    if (!(table instanceof RowLevelOperationTable)) return plan;
    RowLevelOperation op = ((RowLevelOperationTable) table).operation();
    if (!(op instanceof CopyOnWriteOperation)) return plan;
    if (op.command() != RowLevelOperation.Command.DELETE && op.command() != RowLevelOperation.Command.UPDATE) {
      return plan;
    }
    Expression cond = replace.condition();
    if (cond.deterministic() && !SubqueryExpression.hasSubquery(cond)) ((CopyOnWriteOperation) op).filterInTasks(cond);
    return plan;
  }
}
