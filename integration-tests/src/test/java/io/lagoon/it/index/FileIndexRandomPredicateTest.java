package io.lagoon.it.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PlanMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * False-negative property test of every index kind on every type it takes: random predicate trees
 * (equality, null-safe equality, IN with and without NULL, IS [NOT] NULL, ranges, negations,
 * nested under AND, OR and NOT) over Bloom-, bitmap- and bit-sliced-indexed columns answer exactly
 * what plain Spark answers on the same rows. Every file holds each column's global minimum and
 * maximum, so min/max stats never decide a value inside the range and the indexes do the
 * skipping; one file holds only nulls. The Spark UI's index counters must show skipped files
 * (and rows, for bitmaps), so the property is not met by indexes that are never used. A table
 * whose indexed columns were widened (INT to BIGINT) after some files were written answers the
 * same way: the older files' indexes encode the narrower type.
 */
class FileIndexRandomPredicateTest extends LagoonSparkTest {
  private static final int FILES = 8;
  private static final int ROWS_PER_FILE = 300;

  /** A column: its name, SQL type, and the SQL of its value for an integer base ({@code #}). */
  private record Column(String name, String type, String valueOf) {
    String value(String base) {
      return "CAST(" + valueOf.replace("#", "(" + base + ")") + " AS " + type + ")";
    }
  }

  private static final List<Column> COLUMNS = List.of(
      new Column("ti", "TINYINT", "# - 3"),
      new Column("si", "SMALLINT", "# * 300 - 6000"),
      new Column("i", "INT", "# * 100000 - 7"),
      new Column("bi", "BIGINT", "CAST(# AS BIGINT) * 10000000000 - 3"),
      new Column("f", "FLOAT", "# / 4.0 - 2"),
      new Column("d", "DOUBLE", "# / 8.0 - 1.5"),
      new Column("dt", "DATE", "date_add(DATE'2024-01-01', # * 9 - 20)"),
      new Column("ts", "TIMESTAMP_NTZ", "timestamp_micros(1700000000000000 + # * 3600000007)"),
      new Column("tl", "TIMESTAMP", "timestamp_micros(1600000000000000 - # * 86400000013)"),
      new Column("s", "STRING", "concat('s-', #)"),
      new Column("bn", "BINARY", "concat('b-', #)"),
      new Column("dc", "DECIMAL(12,2)", "# * 1.25 - 3"),
      new Column("flag", "BOOLEAN", "# % 2 = 0"));

  private static final List<String> BLOOM = List.of("ti", "si", "i", "bi", "f", "d", "dt", "ts", "tl", "s", "bn");
  private static final List<String> BITMAP = List.of("flag", "ti", "si", "i", "bi", "dt", "ts", "tl", "s");
  private static final List<String> BSI = List.of("ti", "si", "i", "bi", "dt", "ts", "tl", "dc");

  @BeforeAll
  static void load() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.fn");
    StringBuilder ddl = new StringBuilder("id BIGINT");
    for (Column c : COLUMNS) ddl.append(", ").append(c.name).append(' ').append(c.type);
    // Separate index files on one table, in-manifest indexes on the others (the default threshold).
    create("bloom", ddl, "'file-index.bloom-filter.columns' = '" + String.join(",", BLOOM)
        + "', 'file-index.in-manifest-threshold' = '1 b'");
    create("bitmap", ddl, "'file-index.bitmap.columns' = '" + String.join(",", BITMAP) + "'");
    create("bsi", ddl, "'file-index.bsi.columns' = '" + String.join(",", BSI) + "'");
    StringBuilder all = new StringBuilder();
    for (int k = 0; k < FILES; k++) {
      String rows = fileRows(k);
      for (String t : List.of("bloom", "bitmap", "bsi")) sql("INSERT INTO lake.fn." + t + " " + rows);
      all.append(k == 0 ? "" : " UNION ALL ").append(rows);
    }
    // The same rows as a local relation: each expected answer then costs no planning of the generators.
    Dataset<Row> plain = sql(all.toString());
    spark.createDataFrame(plain.collectAsList(), plain.schema()).createOrReplaceTempView("fn_plain");
  }

  private static void create(String name, StringBuilder ddl, String options) {
    sql("CREATE TABLE lake.fn." + name + " (" + ddl + ") TBLPROPERTIES ('write-only' = 'true', " + options + ")");
  }

  /**
   * File k: row 0 holds every column's smallest base (0), row 1 its largest (40); the others a
   * base in [4k, 4k + 5], null about one time in thirteen per column. File 6 holds only nulls
   * after its first two rows, file 7 only nulls in flag and s (so IS NOT NULL can skip it).
   */
  private static String fileRows(int k) {
    StringBuilder select = new StringBuilder("SELECT /*+ REPARTITION(1) */ id");
    int salt = 0;
    for (Column c : COLUMNS) {
      salt++;
      String h = "pmod(hash(id, " + salt + "), 13)";
      String nul = k == 6 || (k == 7 && (c.name.equals("flag") || c.name.equals("s"))) ? "i > 1" : h + " = 0 AND i > 1";
      String base = "CASE WHEN i = 0 THEN 0 WHEN i = 1 THEN 40 ELSE pmod(hash(id, " + (salt + 50) + "), 6) + " + (4 * k)
          + " END";
      select.append(", CASE WHEN ").append(nul).append(" THEN NULL ELSE ").append(c.value(base)).append(" END AS ")
          .append(c.name);
    }
    return select + " FROM (SELECT " + (k * 1000) + " + id AS id, id AS i FROM range(0, " + ROWS_PER_FILE + ", 1, 1))";
  }

  private static Column column(String name) {
    return COLUMNS.stream().filter(c -> c.name.equals(name)).findFirst().orElseThrow();
  }

  /** A base in [-1, 42]: absent (-1, 41, 42), in every file (0, 40), or in a few files only. */
  private static String literal(Random r, Column c) {
    return c.value(Integer.toString(r.nextInt(44) - 1));
  }

  private static String atom(Random r, Column c) {
    String n = c.name;
    if (c.type.equals("BOOLEAN")) {
      String[] forms = {n, "NOT " + n, n + " = true", n + " <=> false", n + " IS NULL", n + " IS NOT NULL",
          n + " IN (true, NULL)", n + " <> false"};
      return forms[r.nextInt(forms.length)];
    }
    switch (r.nextInt(13)) {
      case 0: return n + " = " + literal(r, c);
      case 1: return n + " <=> " + literal(r, c);
      case 2: return n + " IN (" + literal(r, c) + ", " + literal(r, c) + ")";
      case 3: return n + " IN (" + literal(r, c) + ", NULL)";
      case 4: return n + " IS NULL";
      case 5: return n + " IS NOT NULL";
      case 6: return n + " <> " + literal(r, c);
      case 7: return n + " NOT IN (" + literal(r, c) + ", " + literal(r, c) + ")";
      case 8: return n + " < " + literal(r, c);
      case 9: return n + " <= " + literal(r, c);
      case 10: return n + " > " + literal(r, c);
      case 11: return n + " >= " + literal(r, c);
      default: return n + " BETWEEN " + literal(r, c) + " AND " + literal(r, c);
    }
  }

  /** A random predicate tree over the indexed columns (now and then the unindexed id). */
  private static String predicate(Random r, List<String> indexed, int depth) {
    if (depth == 0 || r.nextInt(10) < 4) {
      if (r.nextInt(12) == 0) return "id % 7 = " + r.nextInt(7);
      return atom(r, column(indexed.get(r.nextInt(indexed.size()))));
    }
    switch (r.nextInt(3)) {
      case 0: return "(" + predicate(r, indexed, depth - 1) + " AND " + predicate(r, indexed, depth - 1) + ")";
      case 1: return "(" + predicate(r, indexed, depth - 1) + " OR " + predicate(r, indexed, depth - 1) + ")";
      default: return "NOT (" + predicate(r, indexed, depth - 1) + ")";
    }
  }

  /** What a query answers, by row: count, id sum, and a hash over every column (so values are read right). */
  private static String answer(String table, String where) {
    StringBuilder cols = new StringBuilder("id");
    for (Column c : COLUMNS) cols.append(", ").append(c.name);
    return "SELECT count(*), sum(id), sum(hash(" + cols + ")) FROM " + table + " WHERE " + where;
  }

  /** Runs the random predicates on a table; the index counters summed over them. */
  private static long[] check(String table, List<String> indexed, long seed, int queries) {
    Random r = new Random(seed);
    long filesSkipped = 0;
    long rowsSkipped = 0;
    // First each column alone, equal to a value some files hold and the others' stats admit, then random trees.
    List<String> wheres = new ArrayList<>();
    for (int j = 0; j < indexed.size(); j++) {
      Column c = column(indexed.get(j));
      int k = new int[] {0, 1, 2, 3, 4, 5, 7}[j % 7];
      if (!c.type.equals("BOOLEAN")) wheres.add(c.name + " = " + c.value(Integer.toString(4 * k + 1 + j % 4)));
    }
    for (int q = 0; q < queries; q++) wheres.add(predicate(r, indexed, 1 + q % 3));
    for (String where : wheres) {
      Dataset<Row> df = sql(answer("lake.fn." + table, where));
      List<String> got = render(df.collectAsList());
      assertEquals(rows(answer("fn_plain", where)), got, table + " WHERE " + where);
      Map<String, Long> m = PlanMetrics.ofScans(df.queryExecution().executedPlan());
      filesSkipped += m.getOrDefault("lagoonFilesSkippedByIndex", 0L);
      rowsSkipped += m.getOrDefault("lagoonRowsSkippedByIndex", 0L);
    }
    return new long[] {filesSkipped, rowsSkipped};
  }

  @Test
  void bloomFiltersNeverHideAMatch() {
    long[] skipped = check("bloom", BLOOM, 101, 80);
    assertTrue(skipped[0] > 40, "the Bloom filters skipped only " + skipped[0] + " files");
  }

  @Test
  void bitmapsNeverHideAMatch() {
    long[] skipped = check("bitmap", BITMAP, 202, 80);
    assertTrue(skipped[0] > 40, "the bitmaps skipped only " + skipped[0] + " files");
    assertTrue(skipped[1] > 1000, "the bitmaps left out only " + skipped[1] + " rows");
  }

  @Test
  void bitSlicedIndexesNeverHideAMatch() {
    long[] skipped = check("bsi", BSI, 303, 80);
    assertTrue(skipped[0] > 40, "the bit-sliced indexes skipped only " + skipped[0] + " files");
  }

  /**
   * Indexed columns widened from INT to BIGINT after three files: the old files' indexes hold
   * 4-byte values, the new ones 8-byte values beyond INT's range; no predicate loses a row.
   */
  private static final String INDEXES = "'file-index.bloom-filter.columns' = 'a', 'file-index.bitmap.columns' = 'b', "
      + "'file-index.bsi.columns' = 'c'";

  @Test
  void indexesOfFilesWrittenBeforeAWideningNeverHideAMatch() {
    String t = "lake.fn.widened";
    sql("CREATE TABLE " + t + " (id BIGINT, a INT, b INT, c INT) TBLPROPERTIES ('write-only' = 'true', " + INDEXES + ")");
    StringBuilder all = new StringBuilder();
    for (int k = 0; k < 6; k++) {
      if (k == 3) {
        // An indexed column cannot change type: the options let go of it first, and take it back after.
        sql("ALTER TABLE " + t + " UNSET TBLPROPERTIES ('file-index.bloom-filter.columns', 'file-index.bitmap.columns', "
            + "'file-index.bsi.columns')");
        for (String c : List.of("a", "b", "c")) sql("ALTER TABLE " + t + " ALTER COLUMN " + c + " TYPE BIGINT");
        sql("ALTER TABLE " + t + " SET TBLPROPERTIES (" + INDEXES + ")");
      }
      String scale = k < 3 ? "1" : "10000000000";
      String v = "CAST(CASE WHEN i = 0 THEN 0 WHEN i = 1 THEN 40 WHEN pmod(hash(id, %d), 11) = 0 THEN NULL "
          + "ELSE pmod(hash(id, %d), 5) + " + (6 * k) + " END AS BIGINT) * " + scale;
      String rows = "SELECT /*+ REPARTITION(1) */ id, " + String.format(v, 1, 2) + " AS a, " + String.format(v, 3, 4)
          + " AS b, " + String.format(v, 5, 6) + " AS c FROM (SELECT " + (k * 1000) + " + id AS id, id AS i FROM range(0, 200, 1, 1))";
      sql("INSERT INTO " + t + " " + (k < 3 ? "SELECT id, CAST(a AS INT), CAST(b AS INT), CAST(c AS INT) FROM (" + rows + ")"
          : rows));
      all.append(k == 0 ? "" : " UNION ALL ").append(rows);
    }
    Dataset<Row> plain = sql(all.toString());
    spark.createDataFrame(plain.collectAsList(), plain.schema()).createOrReplaceTempView("widened_plain");
    Random r = new Random(404);
    long skipped = 0;
    for (int q = 0; q < 80; q++) {
      List<String> atoms = new ArrayList<>();
      for (int n = 0; n < 1 + q % 2; n++) {
        String c = List.of("a", "b", "c").get(r.nextInt(3));
        long base = r.nextInt(40);
        long value = base * (r.nextBoolean() ? 1L : 10_000_000_000L);
        String[] forms = {c + " = " + value, c + " IN (" + value + ", " + (value + 1) + ")", c + " > " + value,
            c + " <= " + value, "NOT (" + c + " = " + value + ")", c + " IS NULL", c + " IS NOT NULL"};
        atoms.add(forms[r.nextInt(forms.length)]);
      }
      String where = String.join(r.nextBoolean() ? " AND " : " OR ", atoms);
      Dataset<Row> df = sql("SELECT count(*), sum(id) FROM " + t + " WHERE " + where);
      List<String> got = render(df.collectAsList());
      assertEquals(rows("SELECT count(*), sum(id) FROM widened_plain WHERE " + where), got, where);
      skipped += PlanMetrics.ofScans(df.queryExecution().executedPlan()).getOrDefault("lagoonFilesSkippedByIndex", 0L);
    }
    assertTrue(skipped > 5, "the indexes skipped only " + skipped + " files");
  }
}
