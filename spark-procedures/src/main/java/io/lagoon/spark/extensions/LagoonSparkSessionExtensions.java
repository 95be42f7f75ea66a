package io.lagoon.spark.extensions;

import org.apache.spark.sql.SparkSessionExtensions;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Lagoon's SQL extensions: {@code spark.sql.extensions=io.lagoon.spark.extensions.LagoonSparkSessionExtensions}.
 * Everything Spark parses keeps parsing as before; the extensions add plan rules (a plain upsert
 * MERGE into a primary-key table runs as an upsert write, {@link MergeAsUpsert}).
 */
public final class LagoonSparkSessionExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {
  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    extensions.injectPostHocResolutionRule(new AbstractFunction1<>() {
      @Override
      public org.apache.spark.sql.catalyst.rules.Rule<org.apache.spark.sql.catalyst.plans.logical.LogicalPlan> apply(
          org.apache.spark.sql.SparkSession session) {
        return new MergeAsUpsert();
      }
    });
    return BoxedUnit.UNIT;
  }
}
