package io.lagoon.it.bench;

import static org.apache.spark.sql.functions.col;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import io.lagoon.it.runtime.SqlShell;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.metric.SQLMetric;
import scala.Option;
import scala.collection.JavaConverters;

/**
 * Scan speed of a Lagoon append table against Spark's own Parquet reader on the same rows (the
 * physical limit of a scan). Not a test: run it by hand, see the README.
 *
 * <p>Writes {@code --rows} rows (bigint, int, string, date, timestamp, double) once through the
 * {@code lake} catalog into a table partitioned by day and sorted by id, with a small
 * {@code target-file-size} so there are several files, and once with {@code df.write.parquet}
 * into a plain folder (same partitioning, zstd, about as many files). Each query then runs once
 * to warm up and {@code --runs} times timed on both sides; the table shows best and median wall
 * time, the ratio Lagoon/Spark of the medians, and how many data files each side read.
 *
 * <pre>
 * options: --rows N (1000000)  --runs N (5)  --days N (4)  --target-file-size S (8 mb)
 *          --dir PATH (target/bench-data)  --master M (local[2])
 * </pre>
 */
public final class AppendScanBenchmark {
  private static final String TABLE = "lake.bench.events";
  private static final String VIEW = "parquet_events";

  private long rows = 1_000_000;
  private int runs = 5;
  private int days = 4;
  private String targetFileSize = "8 mb";
  private Path dir = Path.of("target", "bench-data");
  private String master = "local[2]";

  public static void main(String[] args) throws Exception {
    AppendScanBenchmark b = new AppendScanBenchmark();
    for (int i = 0; i < args.length; i += 2) {
      String a = args[i];
      if (i + 1 >= args.length) throw new IllegalArgumentException("Option " + a + " needs a value");
      String v = args[i + 1];
      switch (a) {
        case "--rows": b.rows = Long.parseLong(v); break;
        case "--runs": b.runs = Integer.parseInt(v); break;
        case "--days": b.days = Integer.parseInt(v); break;
        case "--target-file-size": b.targetFileSize = v; break;
        case "--dir": b.dir = Path.of(v); break;
        case "--master": b.master = v; break;
        default: throw new IllegalArgumentException("Unknown option " + a
            + " (options: --rows --runs --days --target-file-size --dir --master)");
      }
    }
    b.run();
  }

  /** One benchmark query; {@code %s} is the table. */
  private static final class Query {
    final String name;
    final String sql;
    final boolean filter;

    Query(String name, String sql, boolean filter) {
      this.name = name;
      this.sql = sql;
      this.filter = filter;
    }
  }

  /** Timings and file counts of one query on one side. */
  private static final class Result {
    long[] nanos;
    String answer;
    long filesRead = -1;
    long filesSkipped = -1;

    long best() {
      return Arrays.stream(nanos).min().orElse(0);
    }

    long median() {
      return BenchSupport.median(nanos);
    }
  }

  private void run() throws IOException {
    dir = dir.toAbsolutePath();
    BenchSupport.deleteRecursively(dir);
    Files.createDirectories(dir);
    Path warehouse = dir.resolve("warehouse");
    Path parquet = dir.resolve("parquet");

    SqlShell.quietLogging();
    SparkSession spark = SparkSession.builder()
        .master(master)
        .appName("lagoon-append-scan-benchmark")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.catalog.lake", "io.lagoon.spark.LagoonCatalog")
        .config("spark.sql.catalog.lake.warehouse", warehouse.toUri().toString())
        .getOrCreate();
    try {
      long rowsPerDay = (rows + days - 1) / days;
      // Prices are multiples of 0.25: double sums are exact in any order, so both sides agree.
      Dataset<Row> data = spark.sql(String.format(Locale.ROOT,
              "SELECT id,"
                  + " CAST(pmod(hash(id), 1000) AS INT) AS qty,"
                  + " concat('customer-', CAST(pmod(hash(id, 7), 50000) AS STRING)) AS customer,"
                  + " date_add(DATE'2024-01-01', CAST(id DIV %d AS INT)) AS dt,"
                  + " timestamp_seconds(1704067200 + id * 3) AS ts,"
                  + " CAST(pmod(hash(id, 3), 1000000) AS DOUBLE) / 4.0 AS price"
                  + " FROM range(0, %d, 1, 8)", rowsPerDay, rows))
          .repartitionByRange(days, col("id"))
          .sortWithinPartitions(col("dt"), col("id"));

      // Generate once without writing, so neither write below pays for a cold JVM.
      data.write().format("noop").mode("overwrite").save();

      spark.sql("CREATE NAMESPACE IF NOT EXISTS lake.bench");
      spark.sql("CREATE TABLE " + TABLE + " (id BIGINT, qty INT, customer STRING, dt DATE, ts TIMESTAMP,"
          + " price DOUBLE) PARTITIONED BY (dt) TBLPROPERTIES ('target-file-size' = '" + targetFileSize + "')");
      long t0 = System.nanoTime();
      try {
        data.writeTo(TABLE).append();
      } catch (Exception e) {
        throw new IllegalStateException("Lagoon write failed: " + e.getMessage(), e);
      }
      long lagoonWrite = System.nanoTime() - t0;
      List<Path> lagoonFiles = BenchSupport.dataFiles(warehouse.resolve("bench.db").resolve("events"));

      long perFile = Math.max(1, (rows + lagoonFiles.size() - 1) / Math.max(1, lagoonFiles.size()));
      t0 = System.nanoTime();
      data.write().mode("overwrite").option("compression", "zstd").option("maxRecordsPerFile", perFile)
          .partitionBy("dt").parquet(parquet.toString());
      long sparkWrite = System.nanoTime() - t0;
      List<Path> parquetFiles = BenchSupport.dataFiles(parquet);
      spark.read().parquet(parquet.toString()).createOrReplaceTempView(VIEW);

      long mid = rows / 2 + 12_345;
      String oneDay = spark.sql("SELECT CAST(date_add(DATE'2024-01-01', 1) AS STRING)").first().getString(0);
      List<Query> queries = List.of(
          new Query("count(*)", "SELECT count(*) FROM %s", false),
          new Query("sum(price)", "SELECT sum(price) FROM %s", false),
          new Query("all columns", "SELECT sum(qty), max(customer), max(ts), min(dt), sum(price), max(id) FROM %s", false),
          new Query("id range: 1001 rows",
              "SELECT count(*), sum(price) FROM %s WHERE id BETWEEN " + mid + " AND " + (mid + 1000), true),
          new Query("one day (partition)",
              "SELECT count(*), sum(price) FROM %s WHERE dt = DATE'" + oneDay + "'", true));

      List<Result[]> results = new ArrayList<>();
      for (Query q : queries) {
        Result lagoon = measure(spark, String.format(q.sql, TABLE));
        Result plain = measure(spark, String.format(q.sql, VIEW));
        if (!lagoon.answer.equals(plain.answer)) {
          throw new IllegalStateException("Different answers for " + q.name + ": Lagoon " + lagoon.answer
              + ", Spark " + plain.answer);
        }
        results.add(new Result[] {lagoon, plain});
      }

      System.out.println();
      System.out.printf(Locale.ROOT, "Lagoon append table vs. Spark's Parquet reader: %,d rows, %s, %d day partitions,"
          + " target-file-size %s%n", rows, master, days, targetFileSize);
      System.out.printf(Locale.ROOT, "  write: Lagoon %.1f s, %d files, %.1f MB | df.write.parquet %.1f s, %d files, %.1f MB%n",
          lagoonWrite / 1e9, lagoonFiles.size(), BenchSupport.megabytes(lagoonFiles),
          sparkWrite / 1e9, parquetFiles.size(), BenchSupport.megabytes(parquetFiles));
      System.out.printf(Locale.ROOT, "  times in ms: best and median of %d runs after 1 warm-up; ratio = Lagoon median / Spark median%n%n", runs);
      String fmt = "%-22s %11s %11s %11s %11s %7s   %s%n";
      System.out.printf(Locale.ROOT, fmt, "query", "lagoon best", "lagoon med", "spark best", "spark med", "ratio",
          "data files read (lagoon | spark)");
      for (int i = 0; i < queries.size(); i++) {
        Result l = results.get(i)[0];
        Result s = results.get(i)[1];
        String files = String.format(Locale.ROOT, "%s | %s",
            l.filesRead < 0 ? "?" : l.filesRead + " of " + lagoonFiles.size() + " (" + l.filesSkipped + " skipped)",
            s.filesRead < 0 ? "?" : s.filesRead + " of " + parquetFiles.size());
        System.out.printf(Locale.ROOT, fmt, queries.get(i).name, BenchSupport.ms(l.best()), BenchSupport.ms(l.median()), BenchSupport.ms(s.best()),
            BenchSupport.ms(s.median()), String.format(Locale.ROOT, "%.2f", l.median() / (double) s.median()), files);
      }
      System.out.println();
    } finally {
      spark.stop();
    }
  }

  private Result measure(SparkSession spark, String sql) {
    Result r = new Result();
    Dataset<Row> warm = spark.sql(sql);
    r.answer = warm.collectAsList().toString();
    SparkPlan plan = warm.queryExecution().executedPlan();
    long scanned = metric(plan, "lagoonFilesScanned");
    if (scanned >= 0) {
      r.filesRead = scanned;
      r.filesSkipped = metric(plan, "lagoonFilesSkipped");
    } else {
      r.filesRead = metric(plan, "numFiles");
    }
    r.nanos = new long[runs];
    for (int i = 0; i < runs; i++) {
      long t0 = System.nanoTime();
      spark.sql(sql).collectAsList();
      r.nanos[i] = System.nanoTime() - t0;
    }
    return r;
  }

  /** Sum of a named SQL metric over the executed plan (through adaptive stages), or -1 if absent. */
  private static long metric(SparkPlan plan, String name) {
    if (plan instanceof AdaptiveSparkPlanExec) return metric(((AdaptiveSparkPlanExec) plan).executedPlan(), name);
    if (plan instanceof QueryStageExec) return metric(((QueryStageExec) plan).plan(), name);
    long sum = -1;
    Option<SQLMetric> m = plan.metrics().get(name);
    if (m.isDefined()) sum = m.get().value();
    for (SparkPlan child : JavaConverters.seqAsJavaList(plan.children())) {
      long c = metric(child, name);
      if (c >= 0) sum = Math.max(sum, 0) + c;
    }
    return sum;
  }
}
