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
 * MERGE INTO, DELETE and UPDATE: Lagoon against Apache Paimon 0.9's Spark connector doing the
 * same statements on the same rows in the same JVM. Not a test: run it with
 * {@code lagoon-bench dml}.
 *
 * <p>For each table kind (a primary-key table with {@code --buckets} buckets, an append table with
 * deletion vectors, an append table without) and engine, it loads {@code --rows} rows
 * {@code (id BIGINT, qty INT, customer STRING, price DOUBLE)} in 4 commits, then times, in this
 * order: a MERGE of a source holding 1% of the keys (updated) and 0.5% new keys (inserted), a
 * DELETE of about 1% of the rows spread over every file, and an UPDATE of two columns on about
 * 1% of the rows. The table's {@code count(*), sum(qty), sum(price)} afterwards must equal what
 * plain Spark computes from the same generator (the MERGE is a plain upsert: with Lagoon's SQL
 * extensions it runs as an upsert write on the primary-key table). Each engine runs the whole
 * sequence {@code --runs} + 1 times on fresh tables: the first run is reported as cold (the first
 * in the JVM for the first engine and table kind; run one engine per JVM with {@code --engines} for
 * each engine's own cold figures), the median of the others as warm. A statement an engine
 * refuses is reported as such. {@code --phase prepare} loads every run's tables and stops;
 * {@code --phase time}, with the same {@code --dir}, times the statements on them in a fresh JVM,
 * as a scheduled job runs ({@link BenchPhase}).
 *
 * <pre>
 * options: --rows N (1000000)  --buckets N (4)  --runs N (3)  --dir PATH (target/bench-dml)
 *          --master M (local[2])  --engines lagoon,paimon  --kinds pk,append-dv,append  --phase all|prepare|time
 * </pre>
 */
public final class RowLevelBenchmark {
  private static final String PAIMON_CATALOG = "org.apache.paimon.spark.SparkCatalog";
  /** Each engine runs with its own SQL extensions, as its users would configure them. */
  private static final String LAGOON_EXTENSIONS = "io.lagoon.spark.extensions.LagoonSparkSessionExtensions";

  private long rows = 1_000_000;
  private int buckets = 4;
  private int runs = 3;
  private Path dir = Path.of("target", "bench-dml");
  private String master = "local[2]";
  private List<String> engines = List.of("lagoon", "paimon");
  private List<String> kinds = List.of("pk", "append-dv", "append");
  private BenchPhase phase = BenchPhase.ALL;
  private StatementReads reads;
  /** With -Dbench.trace, each statement's wall-clock window goes to stderr (to cut a profile by statement). */
  private static final boolean TRACE = Boolean.getBoolean("bench.trace");

  public static void main(String[] args) throws Exception {
    RowLevelBenchmark b = new RowLevelBenchmark();
    for (int i = 0; i < args.length; i += 2) {
      String a = args[i];
      if (i + 1 >= args.length) throw new IllegalArgumentException("Option " + a + " needs a value");
      String v = args[i + 1];
      switch (a) {
        case "--rows": b.rows = Long.parseLong(v); break;
        case "--buckets": b.buckets = Integer.parseInt(v); break;
        case "--runs": b.runs = Integer.parseInt(v); break;
        case "--dir": b.dir = Path.of(v); break;
        case "--master": b.master = v; break;
        case "--engines": b.engines = List.of(v.split(",")); break;
        case "--kinds": b.kinds = List.of(v.split(",")); break;
        case "--phase": b.phase = BenchPhase.parse(v); break;
        default: throw new IllegalArgumentException("Unknown option " + a
            + " (options: --rows --buckets --runs --dir --master --engines --kinds --phase)");
      }
    }
    b.run();
  }

  private static final String[] STATEMENTS = {"merge", "delete", "update"};

  private String properties(String kind) {
    switch (kind) {
      case "pk": return "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '" + buckets + "')";
      // write-only: Lagoon would compact the loads' small files after each INSERT; both engines start from the same files.
      case "append-dv": return "TBLPROPERTIES ('deletion-vectors.enabled' = 'true', 'write-only' = 'true')";
      case "append": return "TBLPROPERTIES ('write-only' = 'true')";
      default: throw new IllegalArgumentException("Unknown kind " + kind + " (pk, append-dv, append)");
    }
  }

  /** The rows of keys [from, to): deterministic values, prices multiples of 0.25 (exact sums). */
  private static String rowsOf(long from, long to, int salt) {
    return String.format(Locale.ROOT, "SELECT id, CAST(pmod(hash(id, %d), 1000) AS INT) AS qty,"
        + " concat('customer-', CAST(pmod(hash(id, 7), 50000) AS STRING)) AS customer,"
        + " CAST(pmod(hash(id, 3 + %d), 100000) AS DOUBLE) / 4.0 AS price FROM range(%d, %d, 1, 8)",
        salt, salt, from, to);
  }

  /** MERGE source: 1% of the keys with new values, and 0.5% keys past the end. */
  private static String mergeSource(long rows) {
    return "(" + rowsOf(0, rows, 1) + " WHERE pmod(hash(id, 5), 100) = 0 UNION ALL " + rowsOf(rows, rows + rows / 200, 1)
        + ")";
  }

  private static String statement(String which, String table, long rows) {
    switch (which) {
      case "merge":
        return "MERGE INTO " + table + " t USING " + mergeSource(rows) + " s ON t.id = s.id "
            + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *";
      case "delete":
        return "DELETE FROM " + table + " WHERE pmod(hash(id, 11), 100) = 0";
      default:
        return "UPDATE " + table + " SET price = price + 1, qty = qty + 1 WHERE pmod(hash(id, 13), 100) = 0";
    }
  }

  /** What the table holds after the three statements, computed by plain Spark. */
  private static String expected(SparkSession spark, long rows) {
    String merged = "SELECT coalesce(s.id, t.id) AS id, coalesce(s.qty, t.qty) AS qty, coalesce(s.price, t.price) AS price"
        + " FROM (" + rowsOf(0, rows, 0) + ") t FULL OUTER JOIN " + mergeSource(rows) + " s ON t.id = s.id";
    String after = "SELECT id, IF(pmod(hash(id, 13), 100) = 0, qty + 1, qty) AS qty,"
        + " IF(pmod(hash(id, 13), 100) = 0, price + 1, price) AS price FROM (" + merged + ")"
        + " WHERE pmod(hash(id, 11), 100) <> 0";
    return spark.sql("SELECT count(*), sum(qty), sum(price) FROM (" + after + ")").collectAsList().toString();
  }

  /** One run of the statements by one engine on one table kind: nanoseconds by statement. */
  private static final class Result {
    final Map<String, Long> nanos = new LinkedHashMap<>();
    final Map<String, String> refused = new LinkedHashMap<>();
    final Map<String, StatementReads.Reads> reads = new LinkedHashMap<>();
    String answer;
    int files;
  }

  /** The cold run and the warm runs of one engine on one table kind. */
  private static final class Runs {
    Result cold;
    final List<Result> warm = new ArrayList<>();

    Long warmMedian(String which) {
      long[] v = warm.stream().filter(r -> r.nanos.containsKey(which)).mapToLong(r -> r.nanos.get(which)).toArray();
      return v.length == 0 ? null : BenchSupport.median(v);
    }
  }

  private void run() throws IOException {
    dir = dir.toAbsolutePath();
    if (phase.writes()) BenchSupport.deleteRecursively(dir);
    Files.createDirectories(dir);
    SqlShell.quietLogging();
    SparkSession.Builder b = SparkSession.builder().master(master).appName("lagoon-dml-benchmark")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", Integer.toString(buckets))
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.catalog.lagoon", "io.lagoon.spark.LagoonCatalog")
        .config("spark.sql.catalog.lagoon.warehouse", dir.resolve("lagoon").toUri().toString());
    boolean paimon = engines.contains("paimon") && BenchSupport.classExists(PAIMON_CATALOG);
    if (paimon) {
      b.config("spark.sql.catalog.paimon", PAIMON_CATALOG)
          .config("spark.sql.catalog.paimon.warehouse", dir.resolve("paimon").toUri().toString())
          .config("spark.sql.extensions", "org.apache.paimon.spark.extensions.PaimonSparkSessionExtensions,"
              + LAGOON_EXTENSIONS);
    } else {
      b.config("spark.sql.extensions", LAGOON_EXTENSIONS);
      if (engines.contains("paimon")) {
        System.err.println("Paimon's Spark connector is not on the class path (run lagoon-bench dml): measuring Lagoon only");
      }
    }
    SparkSession spark = b.getOrCreate();
    reads = new StatementReads(spark);
    try {
      String expected = phase.times() ? expected(spark, rows) : null;
      List<String> active = new ArrayList<>();
      for (String e : engines) if (e.equals("lagoon") || (e.equals("paimon") && paimon)) active.add(e);
      Map<String, Map<String, Runs>> results = new LinkedHashMap<>();
      for (String kind : kinds) {
        for (String engine : active) {
          Runs all = new Runs();
          for (int i = 0; i <= runs; i++) {
            Result r = run(spark, engine, kind, rows, "t" + i);
            if (r == null) continue; // tables written only
            if (r.refused.isEmpty() && !r.answer.equals(expected)) {
              throw new IllegalStateException(engine + " " + kind + " answered " + r.answer + ", plain Spark " + expected);
            }
            if (i == 0) all.cold = r;
            else all.warm.add(r);
          }
          results.computeIfAbsent(kind, k -> new LinkedHashMap<>()).put(engine, all);
        }
      }
      if (phase.times()) {
        report(results, active, expected);
      } else {
        System.out.println("Tables of " + (runs + 1) + " runs written; time them with --phase time and the same --dir");
      }
    } finally {
      spark.stop();
    }
  }

  private Result run(SparkSession spark, String engine, String kind, long n, String name) throws IOException {
    String db = engine + ".b_" + kind.replace('-', '_');
    String table = db + "." + name;
    if (phase.writes()) {
      spark.sql("CREATE DATABASE IF NOT EXISTS " + db);
      spark.sql("CREATE TABLE " + table + " (id BIGINT" + (kind.equals("pk") ? " NOT NULL" : "")
          + ", qty INT, customer STRING, price DOUBLE) " + properties(kind));
      for (int part = 0; part < 4; part++) {
        spark.sql("INSERT INTO " + table + " " + rowsOf(part * n / 4, (part + 1) * n / 4, 0));
      }
    }
    if (!phase.times()) return null;
    Result r = new Result();
    for (String which : STATEMENTS) {
      reads.start();
      long wallStart = System.currentTimeMillis();
      long start = System.nanoTime();
      try {
        spark.sql(statement(which, table, n));
        r.nanos.put(which, System.nanoTime() - start);
        if (TRACE) System.err.printf(Locale.ROOT, "trace %s %s %s %d %d%n", engine, kind, which, wallStart,
            System.currentTimeMillis());
        r.reads.put(which, reads.stop());
      } catch (RuntimeException e) {
        String m = String.valueOf(e.getMessage());
        r.refused.put(which, m.length() > 120 ? m.substring(0, 120) + "..." : m);
      }
    }
    r.answer = spark.sql("SELECT count(*), sum(qty), sum(price) FROM " + table).collectAsList().toString();
    Path tableDir = dir.resolve(engine).resolve("b_" + kind.replace('-', '_') + ".db").resolve(name);
    r.files = BenchSupport.dataFiles(tableDir).size();
    return r;
  }

  private void report(Map<String, Map<String, Runs>> results, List<String> engines, String expected) {
    System.out.println();
    System.out.printf(Locale.ROOT, "Row-level statements, %d rows, %s, answers checked against plain Spark %s%n",
        rows, master, expected);
    System.out.printf(Locale.ROOT, "cold = first run, warm = median of %d runs, ms; read = rows the statement's tasks"
        + " read from the table (Spark's input metrics) and data files its scans planned (the connector's scan metric),"
        + " in the cold run%n", runs);
    System.out.printf(Locale.ROOT, "%-10s %-7s %10s %10s %10s %10s %10s %10s   %s%n", "table", "engine", "merge cold",
        "warm", "delete cold", "warm", "update cold", "warm", "data files after");
    for (Map.Entry<String, Map<String, Runs>> k : results.entrySet()) {
      for (String engine : engines) {
        Runs r = k.getValue().get(engine);
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-10s %-7s", k.getKey(), engine));
        for (String which : STATEMENTS) {
          Long cold = r.cold.nanos.get(which);
          Long warm = r.warmMedian(which);
          line.append(String.format(Locale.ROOT, " %10s %10s", cold == null ? "refused" : BenchSupport.ms(cold),
              warm == null ? "refused" : BenchSupport.ms(warm)));
        }
        line.append("   ").append(r.cold.files);
        System.out.println(line);
        StringBuilder read = new StringBuilder(String.format(Locale.ROOT, "%-10s %-7s", "", "read"));
        for (String which : STATEMENTS) {
          StatementReads.Reads rd = r.cold.reads.get(which);
          read.append(String.format(Locale.ROOT, " %21s", rd == null ? "-" : rd.rows + " rows/" + rd.files + " files"));
        }
        System.out.println(read);
        for (Map.Entry<String, String> f : r.cold.refused.entrySet()) {
          System.out.println("           " + engine + " refused " + f.getKey() + ": " + f.getValue());
        }
      }
      Runs lagoon = k.getValue().get("lagoon");
      Runs paimon = k.getValue().get("paimon");
      if (lagoon != null && paimon != null) {
        StringBuilder ratio = new StringBuilder(String.format(Locale.ROOT, "%-10s %-7s", k.getKey(), "ratio"));
        for (String which : STATEMENTS) {
          Long lc = lagoon.cold.nanos.get(which);
          Long pc = paimon.cold.nanos.get(which);
          Long lw = lagoon.warmMedian(which);
          Long pw = paimon.warmMedian(which);
          ratio.append(String.format(Locale.ROOT, " %10s %10s", lc == null || pc == null ? "-"
              : String.format(Locale.ROOT, "%.2f", lc / (double) pc), lw == null || pw == null ? "-"
              : String.format(Locale.ROOT, "%.2f", lw / (double) pw)));
        }
        System.out.println(ratio + "   (Lagoon / Paimon 0.9)");
      }
    }
  }

}
