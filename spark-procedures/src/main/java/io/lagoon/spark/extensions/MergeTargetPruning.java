package io.lagoon.spark.extensions;

import io.lagoon.spark.write.PrunableTarget;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.DynamicPruningSubquery;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.Inner$;
import org.apache.spark.sql.catalyst.plans.JoinType;
import org.apache.spark.sql.catalyst.plans.LeftOuter$;
import org.apache.spark.sql.catalyst.plans.RightOuter$;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.WriteDelta;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.connector.write.RowLevelOperationTable;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import scala.runtime.AbstractPartialFunction;

/**
 * Prunes the target of a MERGE by the source's keys at run time: the join of target and source
 * gets a dynamic pruning filter on a target column of the join condition, fed by the source's
 * values of it, so the target scan ({@code KeyPruningScan}) reads only the files whose range of
 * that column holds one of them (the first key column of a primary-key table; a column with value
 * stats of an append table with deletion vectors); EXPLAIN shows it as the scan's runtime filter. Spark's own dynamic
 * pruning would only do this for a source with a selective filter. Only joins where dropping
 * target rows is safe (inner, or outer joins that keep the source side) are pruned, and only for
 * sources Spark estimates at most {@link #MAX_SOURCE_BYTES}: the source's keys are collected on the
 * driver to filter the scan.
 */
public final class MergeTargetPruning extends Rule<LogicalPlan> {
  /** Largest estimated source whose keys are collected to prune the target. */
  static final long MAX_SOURCE_BYTES = 64L << 20;

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (!(plan instanceof WriteDelta)) return plan;
    return plan.transformUp(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
      @Override
      public boolean isDefinedAt(LogicalPlan p) {
        return p instanceof Join;
      }

      @Override
      public LogicalPlan apply(LogicalPlan p) {
        return p instanceof Join ? prune((Join) p) : p;
      }
    });
  }

  private static LogicalPlan prune(Join join) {
    if (join.condition().isEmpty()) return join;
    JoinType type = join.joinType();
    boolean targetLeft = target(join.left()) != null;
    boolean targetRight = !targetLeft && target(join.right()) != null;
    if (!targetLeft && !targetRight) return join;
    boolean safe = type == Inner$.MODULE$ || (targetLeft && type == RightOuter$.MODULE$)
        || (targetRight && type == LeftOuter$.MODULE$);
    if (!safe) return join;
    LogicalPlan targetSide = targetLeft ? join.left() : join.right();
    LogicalPlan sourceSide = targetLeft ? join.right() : join.left();
    if (sourceSide.stats().sizeInBytes().compare(scala.math.BigInt.apply(MAX_SOURCE_BYTES)) > 0) return join;
    if (!targetSide.find(n -> n instanceof Filter && ((Filter) n).condition().find(e -> e instanceof DynamicPruningSubquery)
        .isDefined()).isEmpty()) {
      return join; // pruned already
    }
    // The join and the pruning filter's subquery read the source's tables as of one snapshot.
    sourceSide = PinnedSource.of(sourceSide);
    DataSourceV2Relation relation = target(targetSide);
    PrunableTarget operation = (PrunableTarget) ((RowLevelOperationTable) relation.table()).operation();
    List<Expression> conjuncts = new ArrayList<>();
    Conjuncts.split(join.condition().get(), conjuncts);
    for (Expression c : conjuncts) {
      if (!(c instanceof EqualTo)) continue;
      EqualTo eq = (EqualTo) c;
      Expression key = null;
      Expression value = null;
      if (isColumn(eq.left(), relation, operation) && eq.right().references().subsetOf(sourceSide.outputSet())) {
        key = eq.left();
        value = eq.right();
      } else if (isColumn(eq.right(), relation, operation) && eq.left().references().subsetOf(sourceSide.outputSet())) {
        key = eq.right();
        value = eq.left();
      }
      if (key == null) continue;
      LogicalPlan pruned = SourceValuesFilter.over(targetSide, relation, (Attribute) key, value, sourceSide);
      return targetLeft ? join.withNewChildren(scala.collection.JavaConverters.asScalaBuffer(List.of(pruned, sourceSide)).toSeq())
          : join.withNewChildren(scala.collection.JavaConverters.asScalaBuffer(List.of(sourceSide, pruned)).toSeq());
    }
    return join;
  }

  /** The target relation of a prunable row-level statement in this subtree, or null. */
  private static DataSourceV2Relation target(LogicalPlan side) {
    scala.Option<LogicalPlan> found = side.find(n -> n instanceof DataSourceV2Relation
        && ((DataSourceV2Relation) n).table() instanceof RowLevelOperationTable
        && ((RowLevelOperationTable) ((DataSourceV2Relation) n).table()).operation() instanceof PrunableTarget);
    return found.isDefined() ? (DataSourceV2Relation) found.get() : null;
  }

  /** Whether the expression is a target column its scan prunes by. */
  private static boolean isColumn(Expression e, DataSourceV2Relation relation, PrunableTarget operation) {
    return e instanceof Attribute && relation.outputSet().contains((Attribute) e)
        && operation.prunesBy(((Attribute) e).name());
  }
}
