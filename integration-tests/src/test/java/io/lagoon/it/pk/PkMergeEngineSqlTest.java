package io.lagoon.it.pk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.lagoon.it.LagoonSparkTest;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every merge engine through SQL: many INSERT rounds with updates, deletes (row kinds through
 * {@code rowkind.field}) and out-of-order sequence fields, compared with what plain Spark computes
 * from the same changes. A small compaction trigger makes writes compact along the way.
 */
public class PkMergeEngineSqlTest extends LagoonSparkTest {
  private static final String COLUMNS = "(id INT NOT NULL, a INT, b STRING, c BIGINT, ts BIGINT, op STRING)";
  private static final String COMMON = "'primary-key' = 'id', 'bucket' = '3', 'rowkind.field' = 'op',"
      + " 'num-sorted-run.compaction-trigger' = '3'";

  /** The table options every test table gets. */
  protected String common() {
    return COMMON;
  }

  @BeforeAll
  static void ns() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.pk");
  }

  protected static void load(String table, ChangeStream s) {
    for (int i = 0; i < s.rounds.size(); i++) sql(s.insert(table, i));
    s.register(spark);
  }

  protected static void assertTable(String expectedSql, String table) {
    List<String> expected = rows(expectedSql);
    assertFalse(expected.isEmpty(), "the expected result has rows");
    assertEquals(expected, rows("SELECT id, a, b, c FROM " + table));
  }

  @Test
  void deduplicateKeepsTheLastRecordAndDeletes() {
    String t = "lake.pk.dedup";
    sql("CREATE TABLE " + t + " " + COLUMNS + " TBLPROPERTIES (" + common() + ")");
    load(t, new ChangeStream(1, 12, 40, 15, 0.2, d -> d < 0.15 ? "-D" : d < 0.5 ? "+U" : "+I"));
    assertTable("SELECT id, a, b, c FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY seq DESC) AS rn"
        + " FROM changes) WHERE rn = 1 AND op <> '-D'", t);
  }

  /**
   * Records arrive with out-of-order {@code ts}; the highest {@code ts} wins. Deletes come last: one
   * with a higher {@code ts} removes its key, one with a lower {@code ts} is older than the row and
   * changes nothing. (A delete followed by later rows is left out: once compaction has dropped a
   * delete, a later row with a lower {@code ts} comes back, in Paimon as here.)
   */
  @Test
  void deduplicateOrdersBySequenceFieldWhenRecordsArriveOutOfOrder() {
    String t = "lake.pk.seqfield";
    sql("CREATE TABLE " + t + " " + COLUMNS + " TBLPROPERTIES (" + common() + ", 'sequence.field' = 'ts')");
    load(t, new ChangeStream(2, 12, 30, 12, 0.1, d -> d < 0.3 ? "+U" : "+I"));
    sql("INSERT INTO " + t + " VALUES (1, NULL, NULL, NULL, 5000, '-D'), (2, NULL, NULL, NULL, -1, '-D'),"
        + " (3, NULL, NULL, NULL, 5000, '-D'), (4, NULL, NULL, NULL, -1, '-D')");
    sql("CREATE OR REPLACE TEMPORARY VIEW all_changes AS SELECT * FROM changes UNION ALL SELECT * FROM VALUES"
        + " (1, NULL, NULL, NULL, 5000L, '-D', 100000L), (2, NULL, NULL, NULL, -1L, '-D', 100001L),"
        + " (3, NULL, NULL, NULL, 5000L, '-D', 100002L), (4, NULL, NULL, NULL, -1L, '-D', 100003L)"
        + " AS d(id, a, b, c, ts, op, seq)");
    assertTable("SELECT id, a, b, c FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY ts DESC, seq DESC)"
        + " AS rn FROM all_changes) WHERE rn = 1 AND op <> '-D'", t);
    assertEquals(list(), rows("SELECT id FROM " + t + " WHERE id IN (1, 3)"));
    assertEquals(2, rows("SELECT id FROM " + t + " WHERE id IN (2, 4)").size());
  }

  @Test
  void partialUpdateFillsColumnsAndRemovesOnDelete() {
    String t = "lake.pk.partial";
    sql("CREATE TABLE " + t + " " + COLUMNS + " TBLPROPERTIES (" + common() + ", 'merge-engine' = 'partial-update',"
        + " 'partial-update.remove-record-on-delete' = 'true')");
    load(t, new ChangeStream(3, 12, 40, 15, 0.45, d -> d < 0.1 ? "-D" : "+I"));
    // After a key's last -D, each column takes its last non-null value.
    assertTable("WITH d AS (SELECT id, max(IF(op = '-D', seq, NULL)) AS del FROM changes GROUP BY id),"
        + " live AS (SELECT c.* FROM changes c JOIN d USING (id) WHERE (d.del IS NULL OR c.seq > d.del) AND c.op <> '-D')"
        + " SELECT id, max_by(a, IF(a IS NULL, NULL, seq)), max_by(b, IF(b IS NULL, NULL, seq)),"
        + " max_by(c, IF(c IS NULL, NULL, seq)) FROM live GROUP BY id", t);
  }

  @Test
  void aggregationFoldsColumnsAndRetracts() {
    String t = "lake.pk.agg";
    sql("CREATE TABLE " + t + " " + COLUMNS + " TBLPROPERTIES (" + common() + ", 'merge-engine' = 'aggregation',"
        + " 'fields.a.aggregate-function' = 'sum', 'fields.b.aggregate-function' = 'max',"
        + " 'fields.b.ignore-retract' = 'true', 'fields.c.aggregate-function' = 'last_value',"
        + " 'fields.ts.aggregate-function' = 'max', 'fields.ts.ignore-retract' = 'true')");
    load(t, new ChangeStream(4, 12, 40, 15, 0.2, d -> d < 0.15 ? "-U" : "+I"));
    // sum subtracts a -U; max ignores it; last_value takes the last record's value, null after a -U.
    // (last_non_null_value is left out: Paimon merges a lone -U into a row whose null then cannot
    // clear older values, so its result depends on how records were grouped into files.)
    assertTable("SELECT id, sum(IF(op = '-U', -a, a)), max(IF(op = '-U', NULL, b)),"
        + " max_by(IF(op = '-U', NULL, c), seq) FROM changes GROUP BY id", t);
  }

  @Test
  protected void firstRowKeepsTheFirstRecord() {
    String t = "lake.pk.first";
    sql("CREATE TABLE " + t + " " + COLUMNS + " TBLPROPERTIES (" + common() + ", 'merge-engine' = 'first-row')");
    load(t, new ChangeStream(5, 10, 40, 15, 0.2, d -> "+I"));
    assertTable("SELECT id, a, b, c FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY seq) AS rn"
        + " FROM changes) WHERE rn = 1", t);
  }

  @Test
  void duplicateKeysInsideOneInsertAggregate() {
    String t = "lake.pk.dupsum";
    sql("CREATE TABLE " + t + " (id INT NOT NULL, v BIGINT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2',"
        + " 'merge-engine' = 'aggregation', 'fields.v.aggregate-function' = 'sum')");
    sql("INSERT INTO " + t + " SELECT CAST(id % 10 AS INT), id FROM range(0, 1000)");
    sql("INSERT INTO " + t + " SELECT CAST(id % 10 AS INT), 1 FROM range(0, 100)");
    assertEquals(rows("SELECT CAST(id % 10 AS INT), sum(id) + 10 FROM range(0, 1000) GROUP BY 1"),
        rows("SELECT * FROM " + t));
  }

  @Test
  void partitionedTableKeepsKeysPerPartition() {
    String t = "lake.pk.parted";
    sql("CREATE TABLE " + t + " (id INT NOT NULL, v STRING, dt STRING NOT NULL) PARTITIONED BY (dt)"
        + " TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '2')");
    sql("INSERT INTO " + t + " VALUES (1, 'a', 'd1'), (2, 'b', 'd1'), (1, 'c', 'd2')");
    sql("INSERT INTO " + t + " VALUES (1, 'a2', 'd1'), (3, 'x', 'd2')");
    assertEquals(list("1,a2,d1", "2,b,d1", "1,c,d2", "3,x,d2"), rows("SELECT * FROM " + t));
    assertEquals(list("1,a2,d1", "2,b,d1"), rows("SELECT * FROM " + t + " WHERE dt = 'd1'"));
  }
}
