package io.lagoon.spark.extensions;

import io.lagoon.spark.read.LagoonScan;
import org.apache.spark.sql.catalyst.expressions.ApplyFunctionExpression;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeSet;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.RepartitionByExpression;
import org.apache.spark.sql.execution.PlanLater;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.SparkStrategy;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation;
import scala.collection.JavaConverters;
import scala.collection.Seq;

/**
 * Plans without a shuffle the repartition to buckets that a primary-key table's write asks for,
 * when its rows come straight from a scan of that table planned one task per bucket
 * ({@link LagoonScan#bucketAligned}) through filters and projections that pass the key through:
 * a DELETE, or an UPDATE of non-key columns. Each task then already holds exactly the rows of one
 * bucket, as the shuffle would have made them, and writes them where it read them.
 */
final class BucketAlignedWrites extends SparkStrategy {
  @Override
  public Seq<SparkPlan> apply(LogicalPlan plan) {
    if (plan instanceof RepartitionByExpression && aligned((RepartitionByExpression) plan)) {
      SparkPlan child = new PlanLater(((RepartitionByExpression) plan).child());
      return JavaConverters.asScalaBuffer(java.util.List.of(child)).toSeq();
    }
    return JavaConverters.asScalaBuffer(java.util.List.<SparkPlan>of()).toSeq();
  }

  private static boolean aligned(RepartitionByExpression r) {
    LogicalPlan p = r.child();
    while (p instanceof Project || p instanceof Filter) p = p.children().head();
    if (!(p instanceof DataSourceV2ScanRelation)) return false;
    DataSourceV2ScanRelation scan = (DataSourceV2ScanRelation) p;
    if (!(scan.scan() instanceof LagoonScan) || !((LagoonScan) scan.scan()).bucketAligned()) return false;
    // Attributes of the scan that reach the repartition unchanged: the rows' keys are the ones read.
    AttributeSet read = scan.outputSet();
    boolean bucket = false;
    for (Expression e : JavaConverters.seqAsJavaList(r.partitionExpressions())) {
      if (isBucketFunction(e)) bucket = true;
      else if (!(e instanceof Attribute)) return false;
      if (!e.references().subsetOf(read)) return false;
    }
    return bucket;
  }

  /** Lagoon's bucket function of a primary-key table's write distribution. */
  private static boolean isBucketFunction(Expression e) {
    if (!(e instanceof ApplyFunctionExpression)) return false;
    String name = ((ApplyFunctionExpression) e).function().name();
    return name.equals(io.lagoon.spark.functions.PaimonBucketFunction.NAME)
        || name.equals(io.lagoon.spark.functions.PaimonBucketFunction.TASK_NAME);
  }
}
