package io.lagoon.spark.extensions;

import org.apache.spark.sql.SparkSessionExtensions;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Lagoon's SQL extensions: {@code spark.sql.extensions=io.lagoon.spark.extensions.LagoonSparkSessionExtensions}.
 * Everything Spark parses keeps parsing as before; the extensions add {@code CALL [catalog.]sys.<procedure>(...)}
 * ({@link LagoonSqlParser}, {@code io.lagoon.spark.procedures}) and plan rules (a plain upsert
 * MERGE into a primary-key table runs as an upsert write, {@link MergeAsUpsert}; other MERGEs into
 * one read only the target files their source's keys may be in, {@link MergeTargetPruning}; a copy-on-write
 * MERGE with a small source joins it where the target's files are read, {@link CopyOnWriteMergeJoin}; a DELETE
 * or UPDATE of a primary-key table writes each bucket where it read it, {@link BucketAlignedWrites}; an INSERT
 * whose column list leaves columns out writes NULL into them, {@link InsertColumnListNulls}; a MERGE's
 * clauses run without Spark's per-row control exception, {@link PlanMergeRows}).
 */
public final class LagoonSparkSessionExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {
  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    extensions.injectParser(new scala.runtime.AbstractFunction2<>() {
      @Override
      public org.apache.spark.sql.catalyst.parser.ParserInterface apply(org.apache.spark.sql.SparkSession session,
          org.apache.spark.sql.catalyst.parser.ParserInterface spark) {
        return new LagoonSqlParser(spark);
      }
    });
    extensions.injectResolutionRule(new AbstractFunction1<>() {
      @Override
      public org.apache.spark.sql.catalyst.rules.Rule<org.apache.spark.sql.catalyst.plans.logical.LogicalPlan> apply(
          org.apache.spark.sql.SparkSession session) {
        return new InsertColumnListNulls();
      }
    });
    extensions.injectPostHocResolutionRule(new AbstractFunction1<>() {
      @Override
      public org.apache.spark.sql.catalyst.rules.Rule<org.apache.spark.sql.catalyst.plans.logical.LogicalPlan> apply(
          org.apache.spark.sql.SparkSession session) {
        return new MergeAsUpsert();
      }
    });
    extensions.injectOptimizerRule(new AbstractFunction1<>() {
      @Override
      public org.apache.spark.sql.catalyst.rules.Rule<org.apache.spark.sql.catalyst.plans.logical.LogicalPlan> apply(
          org.apache.spark.sql.SparkSession session) {
        return new MergeTargetPruning();
      }
    });
    extensions.injectOptimizerRule(new AbstractFunction1<>() {
      @Override
      public org.apache.spark.sql.catalyst.rules.Rule<org.apache.spark.sql.catalyst.plans.logical.LogicalPlan> apply(
          org.apache.spark.sql.SparkSession session) {
        return new RewriteFilesInTasks();
      }
    });
    extensions.injectPreCBORule(new AbstractFunction1<>() {
      @Override
      public org.apache.spark.sql.catalyst.rules.Rule<org.apache.spark.sql.catalyst.plans.logical.LogicalPlan> apply(
          org.apache.spark.sql.SparkSession session) {
        return new CopyOnWriteMergeJoin();
      }
    });
    extensions.injectPlannerStrategy(new AbstractFunction1<>() {
      @Override
      public org.apache.spark.sql.execution.SparkStrategy apply(org.apache.spark.sql.SparkSession session) {
        return new BucketAlignedWrites();
      }
    });
    extensions.injectPlannerStrategy(new AbstractFunction1<>() {
      @Override
      public org.apache.spark.sql.execution.SparkStrategy apply(org.apache.spark.sql.SparkSession session) {
        return new PlanMergeRows();
      }
    });
    return BoxedUnit.UNIT;
  }
}
