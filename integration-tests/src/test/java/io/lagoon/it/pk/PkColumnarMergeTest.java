package io.lagoon.it.pk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.spark.read.ScanMetrics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The columnar merge of deduplicate tables with one integral key (column batches in, column
 * batches out) gives what plain Spark computes from the same changes, for every atomic type, with
 * deletes, over several sorted runs; tables it does not apply to (a string key, too many runs) take
 * the row merge and agree.
 */
class PkColumnarMergeTest extends LagoonSparkTest {
  private static final String COLUMNS = "id INT NOT NULL, sid STRING NOT NULL, bo BOOLEAN, ti TINYINT, si SMALLINT, "
      + "bi BIGINT, f FLOAT, d DOUBLE, dec DECIMAL(10,2), wdec DECIMAL(30,5), s STRING, bin BINARY, dt DATE, "
      + "ts TIMESTAMP, tsn TIMESTAMP_NTZ, op STRING";
  private static final int ROUNDS = 6;

  /** Round r's changes: a third of the keys, values depending on (id, r), some nulls, some deletes. */
  private static String round(int r) {
    return "SELECT CAST(id AS INT) AS id, CAST(id AS STRING) AS sid, "
        + v(r, 1, "pmod(hash(id, " + r + "), 2) = 0") + " AS bo, "
        + v(r, 2, "CAST(pmod(hash(id, " + r + "), 256) - 128 AS TINYINT)") + " AS ti, "
        + v(r, 3, "CAST(id * " + r + " - 4000 AS SMALLINT)") + " AS si, "
        + v(r, 4, "hash(id, " + r + ") * 1000003L") + " AS bi, "
        + v(r, 5, "CAST(id / 7.0 + " + r + " AS FLOAT)") + " AS f, "
        + v(r, 6, "id * 1.5 - " + r) + " AS d, "
        + v(r, 7, "CAST(id / 100.0 + " + r + " AS DECIMAL(10,2))") + " AS dec, "
        + v(r, 8, "CAST(id * 123456789012.12345 + " + r + " AS DECIMAL(30,5))") + " AS wdec, "
        + v(r, 9, "IF(id % 5 = 0, repeat(concat('long-', id), 4), concat('s', id, '-', " + r + "))") + " AS s, "
        + v(r, 10, "CAST(concat('b', id) AS BINARY)") + " AS bin, "
        + v(r, 11, "date_add(DATE'2024-01-01', CAST(id AS INT) + " + r + ")") + " AS dt, "
        + v(r, 12, "timestamp_micros(1700000000000000 + id * 1001 + " + r + ")") + " AS ts, "
        + v(r, 13, "CAST(timestamp_micros(1600000000000000 + id * 7) AS TIMESTAMP_NTZ)") + " AS tsn, "
        + "IF(" + r + " > 0 AND pmod(hash(id, " + r + ", 99), 6) = 0, '-D', '+I') AS op"
        + " FROM range(0, 3000) WHERE pmod(hash(id, " + r + ", 42), 3) = 0";
  }

  private static String v(int r, int column, String expression) {
    return String.format(Locale.ROOT, "IF(pmod(hash(id, %d, %d), 9) = 0, NULL, %s)", r, column, expression);
  }

  @BeforeAll
  static void tables() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.cm");
    String options = "'bucket' = '2', 'rowkind.field' = 'op', 'write-only' = 'true'";
    sql("CREATE TABLE lake.cm.by_int (" + COLUMNS + ") TBLPROPERTIES ('primary-key' = 'id', " + options + ")");
    sql("CREATE TABLE lake.cm.by_string (" + COLUMNS + ") TBLPROPERTIES ('primary-key' = 'sid', " + options + ")");
    List<String> union = new ArrayList<>();
    for (int r = 0; r < ROUNDS; r++) {
      sql("INSERT INTO lake.cm.by_int " + round(r));
      sql("INSERT INTO lake.cm.by_string " + round(r));
      union.add("SELECT *, " + r + " AS round FROM (" + round(r) + ")");
    }
    sql("CREATE OR REPLACE TEMPORARY VIEW cm_changes AS " + String.join(" UNION ALL ", union));
  }

  /** Plain Spark: each key's change of the latest round, unless that change deletes it. */
  private static List<String> expected() {
    List<String> out = rows("SELECT id, sid, bo, ti, si, bi, f, d, dec, wdec, s, hex(bin), dt, ts, tsn FROM ("
        + "SELECT *, row_number() OVER (PARTITION BY id ORDER BY round DESC) AS rn FROM cm_changes) WHERE rn = 1 AND op = '+I'");
    Collections.sort(out);
    return out;
  }

  private static List<String> read(String table) {
    List<String> out = rows("SELECT id, sid, bo, ti, si, bi, f, d, dec, wdec, s, hex(bin), dt, ts, tsn FROM " + table);
    Collections.sort(out);
    return out;
  }

  @Test
  void integralKeyMergesColumnarAndMatchesPlainSpark() {
    Dataset<Row> q = sql("SELECT count(*), sum(bi), max(s) FROM lake.cm.by_int");
    q.collect();
    assertTrue(PkReadScans.metric(q, ScanMetrics.COLUMNAR_MERGED_ROWS) > 0, "merged columnar");
    List<String> expected = expected();
    assertTrue(expected.size() > 1000, "a real table: " + expected.size());
    assertEquals(expected, read("lake.cm.by_int"));
  }

  @Test
  void stringKeyTakesTheRowMergeAndAgrees() {
    Dataset<Row> q = sql("SELECT count(*) FROM lake.cm.by_string");
    q.collect();
    assertTrue(PkReadScans.metric(q, ScanMetrics.COLUMNAR_MERGED_ROWS) <= 0, "row merge");
    assertTrue(PkReadScans.metric(q, ScanMetrics.MERGED_ROWS) > 0, "merged");
    assertEquals(expected(), read("lake.cm.by_string"));
  }

  @Test
  void projectionsAndFiltersAboveTheColumnarMerge() {
    // A value filter applies after the merge: a deleted or overwritten row must not come back.
    List<String> expected = rows("SELECT id, s FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY round DESC) AS rn"
        + " FROM cm_changes) WHERE rn = 1 AND op = '+I' AND d > 1000");
    Collections.sort(expected);
    List<String> actual = rows("SELECT id, s FROM lake.cm.by_int WHERE d > 1000");
    Collections.sort(actual);
    assertEquals(expected, actual);
    assertEquals(rows("SELECT count(*) FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY round DESC) AS rn"
        + " FROM cm_changes) WHERE rn = 1 AND op = '+I'"), rows("SELECT count(*) FROM lake.cm.by_int"));
  }

  @Test
  void moreRunsThanTheColumnarMergeTakesFallBackToTheRowMerge() {
    sql("CREATE TABLE lake.cm.many (id BIGINT NOT NULL, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1', "
        + "'write-only' = 'true')");
    for (int r = 0; r < 20; r++) {
      sql("INSERT INTO lake.cm.many SELECT id - 50, concat('r', " + r + ") FROM range(0, 100) WHERE id % 20 >= " + r);
    }
    Dataset<Row> q = sql("SELECT count(*) FROM lake.cm.many");
    q.collect();
    assertTrue(PkReadScans.metric(q, ScanMetrics.COLUMNAR_MERGED_ROWS) <= 0, "row merge");
    // Key id - 50 was last written in round (id % 20).
    List<String> expected = new ArrayList<>();
    for (int id = 0; id < 100; id++) expected.add((id - 50) + ",r" + (id % 20));
    Collections.sort(expected);
    List<String> actual = rows("SELECT id, v FROM lake.cm.many");
    Collections.sort(actual);
    assertEquals(expected, actual);
  }
}
