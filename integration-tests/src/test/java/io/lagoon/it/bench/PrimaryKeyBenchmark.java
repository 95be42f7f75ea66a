package io.lagoon.it.bench;

import io.lagoon.it.runtime.SqlShell;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * Primary-key upserts and merge-on-read: Lagoon against Apache Paimon 0.9's Spark connector doing
 * the same work in the same JVM. Not a test: run it by hand with {@code lagoon-bench pk}.
 *
 * <p>Each engine gets a table {@code (id BIGINT, qty INT, customer STRING, ts TIMESTAMP, price
 * DOUBLE)} with {@code 'primary-key'='id'} and {@code --buckets} buckets. It loads {@code --rows}
 * rows, then runs {@code --rounds} upsert rounds, each rewriting a pseudo-random {@code 10%} of the
 * keys with a new price, then reads {@code count(*), sum(price)} (1 warm-up, {@code --runs} timed).
 * Both engines must return the answer plain Spark computes from the same generator. Before any
 * timing, each engine runs the same work on a table of a fifth of the rows, so neither pays the
 * JVM's and Spark's warm-up for the other. Then full scans of the same rows are compared: Lagoon's
 * merge-on-read, an append table holding them, Paimon 0.9's table with deletion vectors (written
 * and read by Paimon) and that same table read by Lagoon.
 *
 * <p>{@code --buckets -1} makes the tables dynamic-bucket ones (each engine assigns buckets its own
 * way, from its HASH index). {@code --cold true} skips the warm-up and the scans: run one engine
 * per fresh JVM that way for its cold load and upserts, as a scheduled job sees them.
 *
 * <pre>
 * options: --rows N (1000000)  --rounds N (5)  --buckets N (4; -1 = dynamic)  --runs N (5)
 *          --dir PATH (target/bench-pk)  --master M (local[2])  --engines lagoon,paimon  --cold false
 * </pre>
 */
public final class PrimaryKeyBenchmark {
  private static final String PAIMON_CATALOG = "org.apache.paimon.spark.SparkCatalog";

  private long rows = 1_000_000;
  private int rounds = 5;
  private int buckets = 4;
  private int runs = 5;
  private Path dir = Path.of("target", "bench-pk");
  private String master = "local[2]";
  private List<String> engines = List.of("lagoon", "paimon");
  private boolean cold;

  public static void main(String[] args) throws Exception {
    PrimaryKeyBenchmark b = new PrimaryKeyBenchmark();
    for (int i = 0; i < args.length; i += 2) {
      String a = args[i];
      if (i + 1 >= args.length) throw new IllegalArgumentException("Option " + a + " needs a value");
      String v = args[i + 1];
      switch (a) {
        case "--rows": b.rows = Long.parseLong(v); break;
        case "--rounds": b.rounds = Integer.parseInt(v); break;
        case "--buckets": b.buckets = Integer.parseInt(v); break;
        case "--runs": b.runs = Integer.parseInt(v); break;
        case "--dir": b.dir = Path.of(v); break;
        case "--master": b.master = v; break;
        case "--engines": b.engines = List.of(v.split(",")); break;
        case "--cold": b.cold = Boolean.parseBoolean(v); break;
        default: throw new IllegalArgumentException("Unknown option " + a
            + " (options: --rows --rounds --buckets --runs --dir --master --engines --cold)");
      }
    }
    b.run();
  }

  /** What one engine measured. */
  private static final class Result {
    long load;
    final List<Long> upserts = new ArrayList<>();
    long[] reads;
    String answer;
    int files;
    double megabytes;
  }

  /** The rows of round r (0 = the load): prices are multiples of 0.25, so sums are exact in any order. */
  private String source(int round, long rows) {
    String where = round == 0 ? "" : " WHERE pmod(hash(id, " + round + "), 10) = 0";
    return String.format(Locale.ROOT, "SELECT id, CAST(pmod(hash(id), 1000) AS INT) AS qty,"
        + " concat('customer-', CAST(pmod(hash(id, 7), 50000) AS STRING)) AS customer,"
        + " timestamp_seconds(1704067200 + id * 3) AS ts,"
        + " CAST(pmod(hash(id, 3), 1000000) AS DOUBLE) / 4.0 + %d AS price"
        + " FROM range(0, %d, 1, 8)%s", round, rows, where);
  }

  /** The expected answer, computed by plain Spark: each key keeps the price of its last round. */
  private String expected(SparkSession spark) {
    StringBuilder last = new StringBuilder("0");
    for (int r = 1; r <= rounds; r++) {
      last = new StringBuilder("IF(pmod(hash(id, " + r + "), 10) = 0, " + r + ", " + last + ")");
    }
    return spark.sql(String.format(Locale.ROOT, "SELECT count(*), sum(CAST(pmod(hash(id, 3), 1000000) AS DOUBLE)"
        + " / 4.0 + %s) FROM range(0, %d, 1, 8)", last, rows)).collectAsList().toString();
  }

  private void run() throws IOException {
    dir = dir.toAbsolutePath();
    BenchSupport.deleteRecursively(dir);
    Files.createDirectories(dir);
    SqlShell.quietLogging();
    SparkSession.Builder b = SparkSession.builder().master(master).appName("lagoon-pk-benchmark")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", Integer.toString(buckets > 0 ? buckets : 4))
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.catalog.lagoon", "io.lagoon.spark.LagoonCatalog")
        .config("spark.sql.catalog.lagoon.warehouse", dir.resolve("lagoon").toUri().toString());
    boolean paimon = engines.contains("paimon") && BenchSupport.classExists(PAIMON_CATALOG);
    if (paimon) {
      b.config("spark.sql.catalog.paimon", PAIMON_CATALOG)
          .config("spark.sql.catalog.paimon.warehouse", dir.resolve("paimon").toUri().toString())
          .config("spark.sql.extensions", "org.apache.paimon.spark.extensions.PaimonSparkSessionExtensions")
          // Lagoon over Paimon's warehouse: reads the deletion-vector table Paimon writes.
          .config("spark.sql.catalog.lagoon_paimon", "io.lagoon.spark.LagoonCatalog")
          .config("spark.sql.catalog.lagoon_paimon.warehouse", dir.resolve("paimon").toUri().toString());
    } else if (engines.contains("paimon")) {
      System.err.println("Paimon's Spark connector is not on the class path (run with the bench-pk profile): "
          + "measuring Lagoon only");
    }
    SparkSession spark = b.getOrCreate();
    try {
      String expected = expected(spark);
      for (String engine : engines) {
        if (engine.equals("paimon") && !paimon) continue;
        if (!cold) measure(spark, engine, "warmup", Math.max(1, rows / 5), 3);
      }
      Map<String, Result> results = new LinkedHashMap<>();
      for (String engine : engines) {
        if (engine.equals("paimon") && !paimon) continue;
        results.put(engine, measure(spark, engine, "pk", rows, runs));
        if (!results.get(engine).answer.equals(expected)) {
          throw new IllegalStateException(engine + " answered " + results.get(engine).answer + ", plain Spark "
              + expected);
        }
      }
      report(results);
      if (!cold) scans(spark, paimon, expected);
    } finally {
      spark.stop();
    }
  }

  private Result measure(SparkSession spark, String catalog, String name, long rows, int runs) throws IOException {
    return measure(spark, catalog, name, rows, runs, "");
  }

  /**
   * Full scans of the same rows after the upserts: Lagoon's merge-on-read, Lagoon's table with
   * deletion vectors (same load and upserts), an append table, and, with Paimon there, Paimon
   * 0.9's table with deletion vectors read by Paimon and by Lagoon. The deletion-vector tables'
   * load and upsert times are printed too (their writes do the lookup compaction).
   */
  private void scans(SparkSession spark, boolean paimon, String expected) throws IOException {
    String query = "SELECT count(*), sum(price) FROM %s";
    String dv = ", 'deletion-vectors.enabled' = 'true'";
    spark.sql("CREATE TABLE lagoon.bench.flat AS SELECT * FROM lagoon.bench.pk");
    Map<String, Result> dvWrites = new LinkedHashMap<>();
    dvWrites.put("lagoon", measure(spark, "lagoon", "pk_dv", rows, 1, dv));
    if (paimon) dvWrites.put("paimon", measure(spark, "paimon", "pk_dv", rows, 1, dv));
    Map<String, Long> medians = new LinkedHashMap<>();
    medians.put("lagoon, primary key (merge-on-read)", scan(spark, String.format(Locale.ROOT, query, "lagoon.bench.pk"), expected));
    medians.put("lagoon, primary key with deletion vectors",
        scan(spark, String.format(Locale.ROOT, query, "lagoon.bench.pk_dv"), expected));
    medians.put("lagoon, append table of the same rows", scan(spark, String.format(Locale.ROOT, query, "lagoon.bench.flat"), expected));
    if (paimon) {
      medians.put("paimon 0.9, primary key with deletion vectors",
          scan(spark, String.format(Locale.ROOT, query, "paimon.bench.pk_dv"), expected));
      medians.put("lagoon reading paimon's deletion-vector table",
          scan(spark, String.format(Locale.ROOT, query, "lagoon_paimon.bench.pk_dv"), expected));
    }
    System.out.println("Deletion-vector tables, the same load and upserts (ms):");
    for (Map.Entry<String, Result> e : dvWrites.entrySet()) {
      Result r = e.getValue();
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-8s load %8s  upserts", e.getKey(),
          BenchSupport.ms(r.load)));
      for (long u : r.upserts) line.append(String.format(Locale.ROOT, " %8s", BenchSupport.ms(u)));
      line.append(String.format(Locale.ROOT, "   %d files, %.1f MB", r.files, r.megabytes));
      System.out.println(line);
    }
    System.out.println();
    System.out.println("Full scans after the upserts, median ms of " + runs + " runs:");
    long append = medians.get("lagoon, append table of the same rows");
    for (Map.Entry<String, Long> e : medians.entrySet()) {
      System.out.printf(Locale.ROOT, "  %-50s %8s  (%.2f x append)%n", e.getKey(), BenchSupport.ms(e.getValue()),
          e.getValue() / (double) append);
    }
    System.out.println();
  }

  private long scan(SparkSession spark, String query, String expected) {
    String answer = spark.sql(query).collectAsList().toString();
    if (!answer.equals(expected)) throw new IllegalStateException(query + " answered " + answer + ", plain Spark " + expected);
    long[] t = new long[runs];
    for (int i = 0; i < runs; i++) t[i] = time(() -> spark.sql(query).collectAsList());
    return BenchSupport.median(t);
  }

  private Result measure(SparkSession spark, String catalog, String name, long rows, int runs, String options)
      throws IOException {
    String table = catalog + ".bench." + name;
    spark.sql("CREATE DATABASE IF NOT EXISTS " + catalog + ".bench");
    spark.sql("CREATE TABLE " + table + " (id BIGINT NOT NULL, qty INT, customer STRING, ts TIMESTAMP, price DOUBLE)"
        + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '" + buckets + "'" + options + ")");
    Result r = new Result();
    r.load = traced(table + " load", () -> spark.sql("INSERT INTO " + table + " " + source(0, rows)));
    for (int round = 1; round <= rounds; round++) {
      int n = round;
      r.upserts.add(traced(table + " upsert" + n, () -> spark.sql("INSERT INTO " + table + " " + source(n, rows))));
    }
    String query = "SELECT count(*), sum(price) FROM " + table;
    r.answer = spark.sql(query).collectAsList().toString();
    r.reads = new long[runs];
    for (int i = 0; i < runs; i++) r.reads[i] = time(() -> spark.sql(query).collectAsList());
    List<Path> files = BenchSupport.dataFiles(dir.resolve(catalog).resolve("bench.db").resolve(name));
    r.files = files.size();
    r.megabytes = BenchSupport.megabytes(files);
    return r;
  }

  private void report(Map<String, Result> results) {
    System.out.println();
    System.out.printf(Locale.ROOT, "Primary-key table: %,d rows, %s, %d upsert rounds of ~10%% of the keys, %s, %s%n",
        rows, buckets > 0 ? buckets + " buckets" : "dynamic buckets", rounds, master,
        cold ? "cold (first work of the JVM)" : "after a warm-up");
    System.out.printf(Locale.ROOT, "  times in ms; read = median of %d runs of count(*), sum(price) after 1 warm-up%n%n", runs);
    StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-8s %8s", "engine", "load"));
    for (int i = 1; i <= rounds; i++) head.append(String.format(Locale.ROOT, " %8s", "upsert" + i));
    head.append(String.format(Locale.ROOT, " %8s %8s   %s", "read", "read/min", "data files after"));
    System.out.println(head);
    for (Map.Entry<String, Result> e : results.entrySet()) {
      Result r = e.getValue();
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-8s %8s", e.getKey(), BenchSupport.ms(r.load)));
      for (long u : r.upserts) line.append(String.format(Locale.ROOT, " %8s", BenchSupport.ms(u)));
      long min = java.util.Arrays.stream(r.reads).min().orElse(0);
      line.append(String.format(Locale.ROOT, " %8s %8s   %d files, %.1f MB", BenchSupport.ms(BenchSupport.median(r.reads)),
          BenchSupport.ms(min), r.files, r.megabytes));
      System.out.println(line);
    }
    Result l = results.get("lagoon");
    Result p = results.get("paimon");
    if (l != null && p != null) {
      long lu = l.upserts.stream().mapToLong(Long::longValue).sum();
      long pu = p.upserts.stream().mapToLong(Long::longValue).sum();
      System.out.printf(Locale.ROOT, "%nLagoon / Paimon: load %.2f, upserts %.2f, read %.2f%n", l.load / (double) p.load,
          lu / (double) pu, BenchSupport.median(l.reads) / (double) BenchSupport.median(p.reads));
    }
    System.out.println();
  }

  /** With -Dbench.trace, each statement's wall-clock window goes to stderr (to cut a profile by statement). */
  private static long traced(String what, Runnable work) {
    long wallStart = System.currentTimeMillis();
    long t = time(work);
    if (Boolean.getBoolean("bench.trace")) {
      System.err.printf(Locale.ROOT, "trace %s %d %d%n", what, wallStart, System.currentTimeMillis());
    }
    return t;
  }

  private static long time(Runnable work) {
    long t0 = System.nanoTime();
    work.run();
    return System.nanoTime() - t0;
  }

}
