package io.lagoon.it.paimon09;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.lagoon.it.oracle.SparkRows;
import io.lagoon.it.pk.ChangeStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Primary-key tables between Lagoon and Paimon 0.9 (Spark catalog, same warehouse): written by
 * Lagoon, by Paimon 0.9, and by both in turns, over enough commits that both compact, with and
 * without deletion vectors; both catalogs must read the same rows after every commit.
 */
@RequiresPaimon09
class Paimon09PkInteropTest {
  private static final String COLUMNS = "(id INT NOT NULL, a INT, b STRING, c BIGINT, ts BIGINT, op STRING)";

  @TempDir
  static Path tmp;

  private static Paimon09Session session;

  @BeforeAll
  static void start() {
    Path warehouse = tmp.resolve("warehouse");
    session = Paimon09Session.builder(warehouse)
        .lakeCatalog(Paimon09Session.LAGOON_CATALOG, warehouse)
        .conf("spark.sql.catalog.paimon.cache-enabled", "false")
        .create();
    session.sql("CREATE DATABASE IF NOT EXISTS paimon.pk");
  }

  @AfterAll
  static void stop() {
    if (session != null) session.close();
  }

  private static List<String> read(String catalog, String table) {
    return SparkRows.renderAll(session.sql("SELECT * FROM " + catalog + ".pk." + table));
  }

  /**
   * @param writers per round, who writes: a string of 'l' (Lagoon) and 'p' (Paimon), cycled
   */
  @ParameterizedTest(name = "{0} by {2}")
  @CsvSource(delimiter = '|', value = {
      "dedup_l|'file.format' = 'parquet'|l",
      "dedup_p|'file.format' = 'parquet'|p",
      "dedup_lp|'file.format' = 'orc'|lp",
      "partial_lp|'merge-engine' = 'partial-update', 'partial-update.remove-record-on-delete' = 'true'|lp",
      "agg_pl|'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'sum', 'fields.c.aggregate-function' = 'max'|pl",
      "dedup_dv_l|'deletion-vectors.enabled' = 'true'|l",
      "dedup_dv_lp|'deletion-vectors.enabled' = 'true', 'file.format' = 'orc'|lp",
      "partial_dv_pl|'deletion-vectors.enabled' = 'true', 'merge-engine' = 'partial-update', 'partial-update.remove-record-on-delete' = 'true'|pl",
      "agg_dv_lp|'deletion-vectors.enabled' = 'true', 'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'sum', 'fields.c.aggregate-function' = 'max'|lp"})
  void bothReadTheSameAfterEveryCommit(String name, String options, String writers) {
    String creator = writers.charAt(0) == 'l' ? "lake" : "paimon";
    session.sql("CREATE TABLE " + creator + ".pk." + name + " " + COLUMNS + " TBLPROPERTIES ('primary-key' = 'id',"
        + " 'bucket' = '2', 'rowkind.field' = 'op', 'num-sorted-run.compaction-trigger' = '3', " + options + ")");
    boolean deletes = !name.startsWith("agg");
    ChangeStream s = new ChangeStream(name.hashCode(), 10, 30, 12, 0.3, d -> deletes && d < 0.15 ? "-D" : "+I");
    for (int i = 0; i < s.rounds.size(); i++) {
      String catalog = writers.charAt(i % writers.length()) == 'l' ? "lake" : "paimon";
      session.sql(s.insert(catalog + ".pk." + name, i));
      List<String> paimon = read("paimon", name);
      assertFalse(paimon.isEmpty());
      assertEquals(paimon, read("lake", name), "after round " + i + " written by " + catalog);
    }
  }
}
