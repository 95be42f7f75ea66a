package io.lagoon.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Base for end-to-end tests: one local SparkSession per test class with the Lagoon catalog
 * {@code lake} over a fresh warehouse folder.
 */
public abstract class LagoonSparkTest {
  protected static SparkSession spark;
  protected static Path warehouse;

  @BeforeAll
  static void startSpark() throws IOException {
    warehouse = Files.createTempDirectory("lagoon-wh");
    spark = newSession(warehouse);
  }

  public static SparkSession newSession(Path warehouse) {
    return newSession(warehouse, java.util.Map.of());
  }

  /** A session with extra settings (static ones such as {@code spark.sql.extensions} included). */
  public static SparkSession newSession(Path warehouse, java.util.Map<String, String> extra) {
    SparkSession.clearActiveSession();
    SparkSession.clearDefaultSession();
    SparkSession.Builder b = SparkSession.builder();
    extra.forEach(b::config);
    return b
        .master("local[2]")
        .appName("lagoon-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.catalog.lake", "io.lagoon.spark.LagoonCatalog")
        .config("spark.sql.catalog.lake.warehouse", warehouse.toUri().toString())
        .getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    if (spark != null) spark.stop();
    spark = null;
  }

  protected static Dataset<Row> sql(String q) {
    return spark.sql(q);
  }

  /** Rows rendered as strings ("1,a,null"), sorted, for order-independent comparison. */
  protected static List<String> rows(String q) {
    return render(sql(q).collectAsList());
  }

  protected static List<String> render(List<Row> rows) {
    List<String> out = new ArrayList<>();
    for (Row r : rows) {
      List<String> cells = new ArrayList<>();
      for (int i = 0; i < r.length(); i++) cells.add(String.valueOf(r.get(i) instanceof byte[]
          ? java.util.HexFormat.of().formatHex((byte[]) r.get(i)) : r.get(i)));
      out.add(String.join(",", cells));
    }
    out.sort(String::compareTo);
    return out;
  }

  protected static List<String> list(String... rows) {
    return java.util.Arrays.stream(rows).sorted().collect(Collectors.toList());
  }
}
