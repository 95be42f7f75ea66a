package io.lagoon.it.dml;

import java.util.Map;
import org.junit.jupiter.api.BeforeAll;

/**
 * The merge-engine cases of {@link PkRowLevelEnginesTest} with Lagoon's SQL extensions, under which
 * DELETE and UPDATE of non-key columns write each bucket where they read it ({@code BucketAlignedWrites}).
 */
class PkRowLevelEnginesWithExtensionsTest extends PkRowLevelEnginesTest {
  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.eng");
  }
}
