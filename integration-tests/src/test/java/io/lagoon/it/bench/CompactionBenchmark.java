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
 * Compaction and sorting: Lagoon's {@code CALL sys.compact} against Apache Paimon 0.9's, on the
 * same rows in the same JVM. Not a test: run it with {@code lagoon-bench compact}.
 *
 * <ul>
 *   <li>(a) an append table of {@code --rows} rows {@code (x INT, y INT, id BIGINT, v STRING)}
 *       written in {@code --commits} commits with {@code target-file-size} 4 MB: the time of a
 *       compaction and the data files before and after;</li>
 *   <li>(b) the same table sorted by z-order on {@code x, y}: the sort's time, then a range query
 *       on both columns, timed, with the rows and files it read, against the unsorted table;</li>
 *   <li>(c) a primary-key table of {@code --rows} rows in 4 buckets after 5 rounds upserting 10%
 *       of the keys: the time of a full compaction.</li>
 * </ul>
 * Every table is written {@code write-only} by both engines, so that the timed compaction does
 * all the work and both start from the same files. Each answer (count and sums, the range query's
 * result) is checked against plain Spark. Each engine runs everything {@code --runs} + 1 times on
 * fresh tables: the first run is reported as cold (run one engine per JVM with {@code --engines}
 * for each engine's own cold figures), the median of the others as warm.
 *
 * <p>{@code --phase prepare} writes every run's tables and stops; {@code --phase time}, with the
 * same {@code --dir}, times the statements on them in a fresh JVM, as a scheduled compaction
 * runs ({@link BenchPhase}). By default one JVM writes each run's tables right before timing them.
 *
 * <pre>
 * options: --rows N (1000000)  --commits N (20)  --runs N (3)  --dir PATH (target/bench-compact)
 *          --master M (local[2])  --engines lagoon,paimon  --parts a,b,c  --phase all|prepare|time
 * </pre>
 */
public final class CompactionBenchmark {
  private static final String PAIMON_CATALOG = "org.apache.paimon.spark.SparkCatalog";
  private static final String LAGOON_EXTENSIONS = "io.lagoon.spark.extensions.LagoonSparkSessionExtensions";
  private static final String[] FIGURES = {"compact", "zorder", "query", "query unsorted", "pk full"};

  private long rows = 1_000_000;
  private int commits = 20;
  private int runs = 3;
  private Path dir = Path.of("target", "bench-compact");
  private String master = "local[2]";
  private List<String> engines = List.of("lagoon", "paimon");
  private List<String> parts = List.of("a", "b", "c");
  private BenchPhase phase = BenchPhase.ALL;
  private StatementReads reads;

  public static void main(String[] args) throws Exception {
    CompactionBenchmark b = new CompactionBenchmark();
    for (int i = 0; i < args.length; i += 2) {
      String a = args[i];
      if (i + 1 >= args.length) throw new IllegalArgumentException("Option " + a + " needs a value");
      String v = args[i + 1];
      switch (a) {
        case "--rows": b.rows = Long.parseLong(v); break;
        case "--commits": b.commits = Integer.parseInt(v); break;
        case "--runs": b.runs = Integer.parseInt(v); break;
        case "--dir": b.dir = Path.of(v); break;
        case "--master": b.master = v; break;
        case "--engines": b.engines = List.of(v.split(",")); break;
        case "--parts": b.parts = List.of(v.split(",")); break;
        case "--phase": b.phase = BenchPhase.parse(v); break;
        default: throw new IllegalArgumentException("Unknown option " + a
            + " (options: --rows --commits --runs --dir --master --engines --parts --phase)");
      }
    }
    b.run();
  }

  /** Rows [from, to) of the append table: x and y spread over [0, 1000), deterministic. */
  private static String appendRows(long from, long to) {
    return String.format(Locale.ROOT, "SELECT CAST(pmod(hash(id, 1), 1000) AS INT) AS x, CAST(pmod(hash(id, 2), 1000) AS INT)"
        + " AS y, id, concat('value-', CAST(pmod(hash(id, 3), 100000) AS STRING)) AS v FROM range(%d, %d, 1, 4)", from, to);
  }

  private static final String BOX = "x >= 100 AND x < 300 AND y >= 100 AND y < 300";

  private static String pkRows(long from, long to, int round) {
    return String.format(Locale.ROOT, "SELECT id, CAST(pmod(hash(id, %d), 1000) AS INT) AS qty,"
        + " concat('c-', CAST(pmod(hash(id, 7), 50000) AS STRING)) AS customer FROM range(%d, %d, 1, 4)", round, from, to);
  }

  /** Keys of upsert round r: 10% of them, a different tenth each round. */
  private static String upsert(long rows, int round) {
    return "SELECT * FROM (" + pkRows(0, rows, round + 1) + ") WHERE pmod(hash(id, 17), 10) = " + round;
  }

  private String expectedAppend(SparkSession spark) {
    return spark.sql("SELECT count(*), sum(x), sum(y), sum(id) FROM (" + appendRows(0, rows) + ")").collectAsList().toString();
  }

  private String expectedBox(SparkSession spark) {
    return spark.sql("SELECT count(*), sum(id) FROM (" + appendRows(0, rows) + ") WHERE " + BOX).collectAsList().toString();
  }

  private String expectedPk(SparkSession spark) {
    String t = "(" + pkRows(0, rows, 0) + ")";
    for (int r = 0; r < 5; r++) {
      t = "(SELECT coalesce(u.id, t.id) AS id, coalesce(u.qty, t.qty) AS qty FROM " + t + " t LEFT JOIN (" + upsert(rows, r)
          + ") u ON t.id = u.id)";
    }
    return spark.sql("SELECT count(*), sum(qty) FROM " + t).collectAsList().toString();
  }

  private static final boolean TRACE = Boolean.getBoolean("bench.trace");

  private static final class Result {
    final Map<String, Long> nanos = new LinkedHashMap<>();
    final Map<String, StatementReads.Reads> reads = new LinkedHashMap<>();
    int filesBefore;
    int filesAfter;
  }

  private void run() throws IOException {
    dir = dir.toAbsolutePath();
    if (phase.writes()) BenchSupport.deleteRecursively(dir);
    Files.createDirectories(dir);
    SqlShell.quietLogging();
    SparkSession.Builder b = SparkSession.builder().master(master).appName("lagoon-compact-benchmark")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.catalog.lagoon", "io.lagoon.spark.LagoonCatalog")
        .config("spark.sql.catalog.lagoon.warehouse", dir.resolve("lagoon").toUri().toString());
    boolean paimon = engines.contains("paimon") && BenchSupport.classExists(PAIMON_CATALOG);
    if (paimon) {
      b.config("spark.sql.catalog.lagoon_over_paimon", "io.lagoon.spark.LagoonCatalog")
          .config("spark.sql.catalog.lagoon_over_paimon.warehouse", dir.resolve("paimon").toUri().toString())
          .config("spark.sql.catalog.paimon", PAIMON_CATALOG)
          .config("spark.sql.catalog.paimon.warehouse", dir.resolve("paimon").toUri().toString())
          .config("spark.sql.extensions", "org.apache.paimon.spark.extensions.PaimonSparkSessionExtensions,"
              + LAGOON_EXTENSIONS);
    } else {
      b.config("spark.sql.extensions", LAGOON_EXTENSIONS);
      if (engines.contains("paimon")) System.err.println("Paimon's Spark connector is not on the class path: Lagoon only");
    }
    SparkSession spark = b.getOrCreate();
    reads = new StatementReads(spark);
    try {
      boolean check = phase.times();
      String[] expected = {check && parts.contains("a") ? expectedAppend(spark) : null,
          check && parts.contains("b") ? expectedBox(spark) : null, check && parts.contains("c") ? expectedPk(spark) : null};
      List<String> active = new ArrayList<>();
      for (String e : engines) if (e.equals("lagoon") || (e.equals("paimon") && paimon)) active.add(e);
      Map<String, List<Result>> results = new LinkedHashMap<>();
      for (String engine : active) {
        List<Result> all = new ArrayList<>();
        for (int i = 0; i <= runs; i++) all.add(run(spark, engine, i, expected));
        results.put(engine, all);
      }
      if (!phase.times()) {
        System.out.println("Tables of " + (runs + 1) + " runs written; time them with --phase time and the same --dir");
      } else {
        report(results, expected);
      }
    } finally {
      spark.stop();
    }
  }

  private long timed(SparkSession spark, String sql, Result r, String figure, boolean measureReads) {
    if (measureReads) reads.start();
    long wallStart = System.currentTimeMillis();
    long start = System.nanoTime();
    spark.sql(sql).collectAsList();
    long t = System.nanoTime() - start;
    // Wall-clock windows of each statement, to cut a profile or an event log by statement.
    if (TRACE) System.err.printf(Locale.ROOT, "trace %s %d %d%n", figure, wallStart, System.currentTimeMillis());
    r.nanos.put(figure, t);
    if (measureReads) r.reads.put(figure, reads.stop());
    return t;
  }

  private Result run(SparkSession spark, String engine, int i, String[] expected) throws IOException {
    Result r = new Result();
    String db = engine + ".bc";
    spark.sql("CREATE DATABASE IF NOT EXISTS " + db);
    String props = "TBLPROPERTIES ('target-file-size' = '4 mb', 'write-only' = 'true')";
    if (parts.contains("a")) partA(spark, engine, i, expected, r, db, props);
    if (parts.contains("b")) partB(spark, engine, i, expected, r, db, props);
    if (parts.contains("c")) partC(spark, engine, i, expected, r, db);
    return r;
  }

  /** (a) compaction of the append table. */
  private void partA(SparkSession spark, String engine, int i, String[] expected, Result r, String db, String props)
      throws IOException {
    String a = db + ".a" + i;
    if (phase.writes()) {
      spark.sql("CREATE TABLE " + a + " (x INT, y INT, id BIGINT, v STRING) " + props);
      load(spark, a);
    }
    if (!phase.times()) return;
    Path aDir = dir.resolve(engine).resolve("bc.db").resolve("a" + i);
    r.filesBefore = BenchSupport.dataFiles(aDir).size();
    timed(spark, "CALL " + engine + ".sys.compact(table => 'bc.a" + i + "')", r, "compact", false);
    check(spark, "SELECT count(*), sum(x), sum(y), sum(id) FROM " + a, expected[0], engine + " compact");
    r.filesAfter = liveFiles(spark, engine, "bc.a" + i);
  }

  /** (b) z-order, and the range query before and after. */
  private void partB(SparkSession spark, String engine, int i, String[] expected, Result r, String db, String props) {
    String z = db + ".z" + i;
    if (phase.writes()) {
      spark.sql("CREATE TABLE " + z + " (x INT, y INT, id BIGINT, v STRING) " + props);
      load(spark, z);
    }
    if (!phase.times()) return;
    String query = "SELECT count(*), sum(id) FROM " + z + " WHERE " + BOX;
    timed(spark, query, r, "query unsorted", true);
    check(spark, query, expected[1], engine + " query unsorted");
    timed(spark, "CALL " + engine + ".sys.compact(table => 'bc.z" + i + "', order_strategy => 'zorder', order_by => 'x,y')", r,
        "zorder", false);
    timed(spark, query, r, "query", true);
    check(spark, query, expected[1], engine + " query after zorder");
  }

  /** (c) full compaction of the primary-key table after 5 upsert rounds. */
  private void partC(SparkSession spark, String engine, int i, String[] expected, Result r, String db) {
    String p = db + ".p" + i;
    if (phase.writes()) {
      spark.sql("CREATE TABLE " + p + " (id BIGINT NOT NULL, qty INT, customer STRING) TBLPROPERTIES ('primary-key' = 'id', "
          + "'bucket' = '4', 'write-only' = 'true')");
      spark.sql("INSERT INTO " + p + " " + pkRows(0, rows, 0));
      for (int round = 0; round < 5; round++) spark.sql("INSERT INTO " + p + " " + upsert(rows, round));
    }
    if (!phase.times()) return;
    timed(spark, "CALL " + engine + ".sys.compact(table => 'bc.p" + i + "')", r, "pk full", false);
    check(spark, "SELECT count(*), sum(qty) FROM " + p, expected[2], engine + " pk full");
  }

  private void load(SparkSession spark, String table) {
    for (int c = 0; c < commits; c++) {
      spark.sql("INSERT INTO " + table + " " + appendRows(c * rows / commits, (c + 1) * rows / commits));
    }
  }

  /** Data files the table's latest snapshot holds, read through Lagoon (a second Lagoon catalog over Paimon's warehouse). */
  private static int liveFiles(SparkSession spark, String engine, String table) {
    String catalog = engine.equals("lagoon") ? "lagoon" : "lagoon_over_paimon";
    return (int) spark.sql("SELECT DISTINCT _file FROM " + catalog + "." + table).count();
  }

  private static void check(SparkSession spark, String sql, String expected, String what) {
    String got = spark.sql(sql).collectAsList().toString();
    if (!got.equals(expected)) throw new IllegalStateException(what + " answered " + got + ", plain Spark " + expected);
  }

  private void report(Map<String, List<Result>> results, String[] expected) {
    System.out.println();
    System.out.printf(Locale.ROOT, "Compaction and sorting, %d rows in %d commits, %s; answers checked against plain Spark%n",
        rows, commits, master);
    System.out.printf(Locale.ROOT, "cold = first run, warm = median of %d runs, ms%n", runs);
    System.out.printf(Locale.ROOT, "%-7s %-16s %10s %10s%n", "engine", "figure", "cold", "warm");
    Map<String, long[]> medians = new LinkedHashMap<>();
    for (Map.Entry<String, List<Result>> e : results.entrySet()) {
      List<Result> all = e.getValue();
      for (String f : FIGURES) {
        if (!all.get(0).nanos.containsKey(f)) continue;
        long cold = all.get(0).nanos.get(f);
        long[] warm = all.subList(1, all.size()).stream().mapToLong(x -> x.nanos.get(f)).toArray();
        long w = warm.length == 0 ? cold : BenchSupport.median(warm);
        medians.put(e.getKey() + "/" + f, new long[] {cold, w});
        System.out.printf(Locale.ROOT, "%-7s %-16s %10s %10s%n", e.getKey(), f, BenchSupport.ms(cold), BenchSupport.ms(w));
      }
      Result c = all.get(0);
      StatementReads.Reads unsorted = c.reads.get("query unsorted");
      StatementReads.Reads sorted = c.reads.get("query");
      if (unsorted != null) System.out.printf(Locale.ROOT, "%-7s data files %d before compaction, %d after; range query reads %d rows / %d files "
              + "unsorted, %d rows / %d files after z-order (%.0f%% of the rows)%n", e.getKey(), c.filesBefore, c.filesAfter,
          unsorted.rows, unsorted.files, sorted.rows, sorted.files, 100.0 * sorted.rows / Math.max(1, unsorted.rows));
    }
    if (results.size() == 2) {
      for (String f : FIGURES) {
        long[] l = medians.get("lagoon/" + f);
        long[] p = medians.get("paimon/" + f);
        if (l == null || p == null) continue;
        System.out.printf(Locale.ROOT, "ratio   %-16s %10.2f %10.2f   (Lagoon / Paimon 0.9)%n", f, l[0] / (double) p[0],
            l[1] / (double) p[1]);
      }
    }
  }

}
