package io.lagoon.spark.extensions;

import io.lagoon.spark.write.CopyOnWriteOperation;
import io.lagoon.spark.write.PrunableTarget;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.MergeRows;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.write.RowLevelOperation;
import org.apache.spark.sql.connector.write.RowLevelOperationTable;
import org.apache.spark.sql.execution.PlanLater;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.SparkStrategy;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation;
import scala.collection.JavaConverters;
import scala.collection.Seq;

/**
 * Plans the MERGE step of a MERGE into a Lagoon table as {@link LagoonMergeRowsExec}; MERGEs into
 * other catalogs' tables keep Spark's operator.
 */
final class PlanMergeRows extends SparkStrategy {
  @Override
  public Seq<SparkPlan> apply(LogicalPlan plan) {
    if (plan instanceof MergeRows && readsLagoonTarget(((MergeRows) plan).child())) {
      MergeRows merge = (MergeRows) plan;
      SparkPlan exec = LagoonMergeRowsExec.of(merge, new PlanLater(merge.child()));
      return JavaConverters.asScalaBuffer(java.util.List.of(exec)).toSeq();
    }
    return JavaConverters.asScalaBuffer(java.util.List.<SparkPlan>of()).toSeq();
  }

  private static boolean readsLagoonTarget(LogicalPlan joined) {
    return joined.find(n -> n instanceof DataSourceV2ScanRelation
        && isLagoonOperation(((DataSourceV2ScanRelation) n).relation().table())
        || n instanceof DataSourceV2Relation && isLagoonOperation(((DataSourceV2Relation) n).table())).isDefined();
  }

  private static boolean isLagoonOperation(Table table) {
    if (!(table instanceof RowLevelOperationTable)) return false;
    RowLevelOperation op = ((RowLevelOperationTable) table).operation();
    return op instanceof CopyOnWriteOperation || op instanceof PrunableTarget;
  }
}
