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
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;

/**
 * Bloom filter file indexes: Lagoon against Apache Paimon 0.9's Spark connector on the same rows in
 * the same JVM. Not a test: run it with {@code lagoon-bench index}.
 *
 * <p>Each engine writes an append table of {@code --rows} rows {@code (id BIGINT, v STRING, k INT)}
 * in {@code --commits} commits, with a Bloom filter index on the high-cardinality string {@code v}
 * (each engine's default options: Paimon sizes each filter for a million values at fpp 0.1, Lagoon
 * for the file's distinct values at fpp 0.01), and the same table without the index. Then it times point lookups {@code v = <a
 * present value>} and {@code v = <an absent value>} on both tables, reporting data files planned
 * and rows read (Spark's input metrics), first run and warm (median of {@code --runs}; engines take
 * turns run by run), and
 * index bytes on disk beside data bytes; table {@code idx10} sets fpp 0.1 (Paimon's default) for
 * both engines, to compare sizes at the same fpp. Another table carries a bitmap index on the low-cardinality
 * {@code k} (100 values, in every file) and answers the selective {@code k IN (3, 57)} (2% of rows),
 * timed beside the plain table. Every answer is checked against plain Spark. The queries only
 * read: {@code --phase prepare} writes the tables and stops, and {@code --phase time} (same
 * {@code --dir}, any number of times) times the queries in a JVM that wrote nothing, as a fresh
 * shell or a scheduled job would run them ({@link BenchPhase}).
 *
 * <pre>
 * options: --rows N (1000000)  --commits N (20)  --runs N (5)  --dir PATH (target/bench-index)
 *          --master M (local[2])  --engines lagoon,paimon  --phase all|prepare|time
 * </pre>
 */
public final class FileIndexBenchmark {
  private static final String PAIMON_CATALOG = "org.apache.paimon.spark.SparkCatalog";

  private long rows = 1_000_000;
  private int commits = 20;
  private int runs = 5;
  private Path dir = Path.of("target", "bench-index");
  private String master = "local[2]";
  private List<String> engines = List.of("lagoon", "paimon");
  private BenchPhase phase = BenchPhase.ALL;
  private StatementReads reads;
  /** With -Dbench.trace, each query's wall-clock window goes to stderr (to cut a profile by query). */
  private static final boolean TRACE = Boolean.getBoolean("bench.trace");

  public static void main(String[] args) throws Exception {
    FileIndexBenchmark b = new FileIndexBenchmark();
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
        case "--phase": b.phase = BenchPhase.parse(v); break;
        default: throw new IllegalArgumentException("Unknown option " + a
            + " (options: --rows --commits --runs --dir --master --engines --phase)");
      }
    }
    b.run();
  }

  /** Rows [from, to): v is a hash-like string of the id (high cardinality, spread over every file's range). */
  private static String rowsOf(long from, long to) {
    return String.format(Locale.ROOT, "SELECT id, concat('v-', CAST(pmod(hash(id, 17), 1000000000) AS STRING), '-', "
        + "CAST(id AS STRING)) AS v, CAST(pmod(id, 100) AS INT) AS k FROM range(%d, %d, 1, 1)", from, to);
  }

  private void run() throws IOException {
    dir = dir.toAbsolutePath();
    if (phase.writes()) BenchSupport.deleteRecursively(dir);
    Files.createDirectories(dir);
    SqlShell.quietLogging();
    SparkSession.Builder b = SparkSession.builder().master(master).appName("lagoon-index-benchmark")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.catalog.lagoon", "io.lagoon.spark.LagoonCatalog")
        .config("spark.sql.catalog.lagoon.warehouse", dir.resolve("lagoon").toUri().toString());
    boolean paimon = engines.contains("paimon") && BenchSupport.classExists(PAIMON_CATALOG);
    if (paimon) {
      b.config("spark.sql.catalog.paimon", PAIMON_CATALOG)
          .config("spark.sql.catalog.paimon.warehouse", dir.resolve("paimon").toUri().toString());
    } else if (engines.contains("paimon")) {
      System.err.println("Paimon's Spark connector is not on the class path (run lagoon-bench index): Lagoon only");
    }
    SparkSession spark = b.getOrCreate();
    reads = new StatementReads(spark);
    try {
      // The present value, computed once by plain Spark (the same expression both engines' rows used).
      long id = rows / 2 + 7;
      String present = spark.sql(String.format(Locale.ROOT,
          "SELECT concat('v-', CAST(pmod(hash(%dL, 17), 1000000000) AS STRING), '-', '%d')", id, id)).first().getString(0);
      // Inside every file's min/max range of v, so only the index can rule it out.
      String absent = "v-5-absent";
      String inAnswer = spark.sql(String.format(Locale.ROOT,
          "SELECT count(*), sum(id) FROM range(0, %d) WHERE pmod(id, 100) IN (3, 57)", rows)).collectAsList().toString();
      List<String> active = new ArrayList<>();
      for (String e : engines) if (e.equals("lagoon") || (e.equals("paimon") && paimon)) active.add(e);
      Map<String, Map<String, long[]>> times = new LinkedHashMap<>();
      Map<String, Map<String, StatementReads.Reads>> read = new LinkedHashMap<>();
      Map<String, long[]> bytes = new LinkedHashMap<>();
      for (String engine : active) {
        if (phase.writes()) spark.sql("CREATE DATABASE IF NOT EXISTS " + engine + ".bi");
        for (String t : phase.writes() ? new String[] {"idx", "idx10", "plain", "bm"} : new String[0]) {
          String props = t.equals("idx") ? ", 'file-index.bloom-filter.columns' = 'v'"
              : t.equals("idx10") ? ", 'file-index.bloom-filter.columns' = 'v', 'file-index.bloom-filter.v.fpp' = '0.1'"
              : t.equals("bm") ? ", 'file-index.bitmap.columns' = 'k'" : "";
          spark.sql("CREATE TABLE " + engine + ".bi." + t + " (id BIGINT, v STRING, k INT) TBLPROPERTIES "
              + "('write-only' = 'true'" + props + ")");
          for (int c = 0; c < commits; c++) {
            spark.sql("INSERT INTO " + engine + ".bi." + t + " " + rowsOf(c * rows / commits, (c + 1) * rows / commits));
          }
        }
        bytes.put(engine, sizes(dir.resolve(engine).resolve("bi.db").resolve("idx")));
        bytes.put(engine + " idx10", sizes(dir.resolve(engine).resolve("bi.db").resolve("idx10")));
        bytes.put(engine + " bm", sizes(dir.resolve(engine).resolve("bi.db").resolve("bm")));
      }
      if (!phase.times()) {
        System.out.println("Tables written; time the queries with --phase time and the same --dir");
        return;
      }
      // The same query shapes through Spark's own Parquet reader first: the engine whose turn comes
      // first would otherwise also pay the warm-up of Spark's query path both engines share.
      String warmup = dir.resolve("warmup").toUri().toString();
      spark.sql("SELECT id, v, k FROM (" + rowsOf(0, rows / 10) + ")").write().mode("overwrite").parquet(warmup);
      for (String where : new String[] {"v = 'v-5'", "k IN (3, 57)"}) {
        spark.read().parquet(warmup).where(where).selectExpr("count(*)", "sum(id)").collectAsList();
      }
      // Engines take turns run by run, so neither is timed on a JVM the other has warmed more.
      String[][] queries = {{"idx", "hit"}, {"idx", "miss"}, {"idx10", "hit"}, {"idx10", "miss"},
          {"plain", "hit"}, {"plain", "miss"}, {"bm", "in"}, {"plain", "in"}};
      for (String[] tq : queries) {
        String t = tq[0];
        String which = tq[1];
        String where = which.equals("in") ? "k IN (3, 57)" : "v = '" + (which.equals("hit") ? present : absent) + "'";
        String expected = which.equals("hit") ? "[[1," + id + "]]" : which.equals("miss") ? "[[0,null]]" : inAnswer;
        for (String engine : active) times.computeIfAbsent(engine, k -> new LinkedHashMap<>()).put(t + " " + which, new long[runs + 1]);
        for (int i = 0; i <= runs; i++) {
          for (String engine : active) {
            String q = "SELECT count(*), sum(id) FROM " + engine + ".bi." + t + " WHERE " + where;
            if (i == 0) reads.start();
            long wallStart = System.currentTimeMillis();
            long start = System.nanoTime();
            String got = spark.sql(q).collectAsList().toString();
            times.get(engine).get(t + " " + which)[i] = System.nanoTime() - start;
            if (TRACE) System.err.println("trace " + engine + " " + t + " " + which + " " + i + " " + wallStart + " "
                + System.currentTimeMillis());
            if (i == 0) read.computeIfAbsent(engine, k -> new LinkedHashMap<>()).put(t + " " + which, reads.stop());
            if (!got.equals(expected)) throw new IllegalStateException(engine + " " + q + " answered " + got + ", expected " + expected);
          }
        }
      }
      System.out.println();
      System.out.printf(Locale.ROOT, "File indexes (Bloom on v, bitmap on k), %d rows in %d commits, %s; answers checked%n", rows, commits, master);
      System.out.printf(Locale.ROOT, "first = first run of the query (in a JVM that has %s run the query shapes on plain Parquet), warm = median of %d runs, ms;%n"
          + "files = data files planned, rows = rows read%n", phase.writes() ? "written the tables and" : "only", runs);
      System.out.printf(Locale.ROOT, "%-7s %-12s %8s %8s %6s %9s%n", "engine", "query", "first", "warm", "files", "rows");
      for (String engine : active) {
        for (Map.Entry<String, long[]> e : times.get(engine).entrySet()) {
          long[] ns = e.getValue();
          long[] warm = java.util.Arrays.copyOfRange(ns, 1, ns.length);
          StatementReads.Reads r = read.get(engine).get(e.getKey());
          System.out.printf(Locale.ROOT, "%-7s %-12s %8s %8s %6d %9d%n", engine, e.getKey(), BenchSupport.ms(ns[0]),
              BenchSupport.ms(BenchSupport.median(warm)), r.files, r.rows);
        }
        long[] b2 = bytes.get(engine);
        System.out.printf(Locale.ROOT, "%-7s Bloom index bytes %d beside data bytes %d (%.1f%%)%n", engine, b2[1], b2[0],
            100.0 * b2[1] / Math.max(1, b2[0]));
        long[] b10 = bytes.get(engine + " idx10");
        System.out.printf(Locale.ROOT, "%-7s Bloom index bytes at fpp 0.1 %d beside data bytes %d (%.1f%%)%n", engine, b10[1],
            b10[0], 100.0 * b10[1] / Math.max(1, b10[0]));
        long[] b3 = bytes.get(engine + " bm");
        System.out.printf(Locale.ROOT, "%-7s bitmap index bytes %d beside data bytes %d (%.1f%%; embedded ones not counted)%n",
            engine, b3[1], b3[0], 100.0 * b3[1] / Math.max(1, b3[0]));
      }
      if (active.size() == 2) {
        for (String q : times.get("lagoon").keySet()) {
          long[] l = times.get("lagoon").get(q);
          long[] p = times.get("paimon").get(q);
          System.out.printf(Locale.ROOT, "ratio   %-12s %8.2f %8.2f   (Lagoon / Paimon 0.9)%n", q, (double) l[0] / p[0],
              (double) BenchSupport.median(java.util.Arrays.copyOfRange(l, 1, l.length))
                  / BenchSupport.median(java.util.Arrays.copyOfRange(p, 1, p.length)));
        }
      }
    } finally {
      spark.stop();
    }
  }

  /** {data bytes, index bytes (separate index files plus what manifests embed is not counted)} of a table folder. */
  private static long[] sizes(Path table) throws IOException {
    long data = 0;
    long index = 0;
    try (Stream<Path> s = Files.walk(table)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String n = p.getFileName().toString();
        if (p.toString().contains("/manifest/") || !Files.isRegularFile(p)) continue;
        if (n.endsWith(".index")) index += Files.size(p);
        else if (n.endsWith(".parquet") || n.endsWith(".orc")) data += Files.size(p);
      }
    }
    return new long[] {data, index};
  }

}
