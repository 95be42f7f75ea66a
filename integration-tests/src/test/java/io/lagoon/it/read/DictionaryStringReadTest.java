package io.lagoon.it.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.it.LagoonSparkTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Strings of dictionary-encoded Parquet columns are decoded once per dictionary entry and shared
 * between rows: every value must still be the row's own, with nulls, across column chunks, and
 * where a column falls back from its dictionary to plain pages within a chunk; the same through a
 * copy-on-write rewrite, which reads every value and writes it back, and through a primary-key
 * compaction, which reads its records out of column batches and keeps some across batches.
 */
class DictionaryStringReadTest extends LagoonSparkTest {
  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
  }

  /** {@code tag}: 7 values and nulls (a dictionary); {@code note}: unique and long, so the writer falls back to plain pages. */
  private static final String ROWS = "SELECT id, IF(id % 11 = 0, NULL, concat('tag-', CAST(id % 7 AS STRING))) AS tag,"
      + " concat('note-', CAST(id AS STRING), '-', repeat('x', 40)) AS note FROM range(0, 60000, 1, 3)";

  /** Many row groups per file, each with its own dictionaries, read one after another by a task. */
  private static final String SMALL_ROW_GROUPS = " TBLPROPERTIES ('parquet.block.size' = '262144')";

  @Test
  void everyRowKeepsItsOwnStringsVectorizedOrNot() {
    spark.sql("CREATE DATABASE IF NOT EXISTS lake.db");
    spark.sql("CREATE TABLE lake.db.dict_read (id BIGINT, tag STRING, note STRING)" + SMALL_ROW_GROUPS);
    spark.sql("INSERT INTO lake.db.dict_read " + ROWS);
    spark.sql("INSERT INTO lake.db.dict_read " + ROWS.replace("range(0, 60000", "range(60000, 90000"));
    String agg = "SELECT tag, count(*), min(note), max(note), sum(hash(note)) FROM %s GROUP BY tag";
    String all = "(" + ROWS + " UNION ALL " + ROWS.replace("range(0, 60000", "range(60000, 90000") + ")";
    List<String> expected = rows(agg.replace("%s", all));
    assertEquals(expected, rows(agg.replace("%s", "lake.db.dict_read")));
    // Row by row: each string must be the row's own, its id paired with its tag and note.
    String pairs = "SELECT count(*) FROM %s WHERE tag <=> IF(id % 11 = 0, NULL, concat('tag-', CAST(id % 7 AS STRING)))"
        + " AND note = concat('note-', CAST(id AS STRING), '-', repeat('x', 40))";
    assertEquals(List.of("90000"), rows(pairs.replace("%s", "lake.db.dict_read")));
    spark.conf().set("spark.sql.parquet.enableVectorizedReader", "false");
    try {
      assertEquals(expected, rows(agg.replace("%s", "lake.db.dict_read")));
    } finally {
      spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
    }
  }

  @Test
  void aCopyOnWriteRewriteWritesBackEveryStringAsItWas() {
    spark.sql("CREATE DATABASE IF NOT EXISTS lake.db");
    spark.sql("CREATE TABLE lake.db.dict_rewrite (id BIGINT, tag STRING, note STRING)" + SMALL_ROW_GROUPS);
    spark.sql("INSERT INTO lake.db.dict_rewrite " + ROWS);
    spark.sql("DELETE FROM lake.db.dict_rewrite WHERE id % 13 = 0");
    spark.sql("UPDATE lake.db.dict_rewrite SET tag = 'changed' WHERE id % 17 = 0");
    String expected = "SELECT id, IF(id % 17 = 0, 'changed', tag) AS tag, note FROM (" + ROWS + ") WHERE id % 13 <> 0";
    String digest = "SELECT count(*), sum(hash(id, tag, note)), count(tag) FROM %s";
    assertEquals(rows(digest.replace("%s", "(" + expected + ")")), rows(digest.replace("%s", "lake.db.dict_rewrite")));
  }

  @Test
  void aPrimaryKeyCompactionKeepsEveryRecordsOwnStrings() {
    spark.sql("CREATE DATABASE IF NOT EXISTS lake.db");
    spark.sql("CREATE TABLE lake.db.dict_pk (id BIGINT NOT NULL, tag STRING, note STRING) TBLPROPERTIES ("
        + "'primary-key' = 'id', 'bucket' = '2', 'write-only' = 'true', 'parquet.block.size' = '262144')");
    spark.sql("INSERT INTO lake.db.dict_pk " + ROWS);
    // Upserts of every third key, newer strings winning the merge, older ones kept where not updated.
    String upsert = "SELECT id, concat('new-', CAST(id % 5 AS STRING)) AS tag, IF(id % 4 = 0, NULL, concat('upd-',"
        + " CAST(id AS STRING))) AS note FROM range(0, 60000, 3, 2)";
    spark.sql("INSERT INTO lake.db.dict_pk " + upsert);
    spark.sql("CALL lake.sys.compact(table => 'db.dict_pk')");
    String expected = "SELECT b.id, coalesce(u.tag, b.tag) AS tag, IF(u.id IS NULL, b.note, u.note) AS note FROM (" + ROWS
        + ") b LEFT JOIN (" + upsert + ") u ON b.id = u.id";
    String digest = "SELECT count(*), sum(hash(id, tag, note)), count(tag), count(note) FROM %s";
    assertEquals(rows(digest.replace("%s", "(" + expected + ")")), rows(digest.replace("%s", "lake.db.dict_pk")));
    assertEquals(List.of("1"), rows("SELECT count(DISTINCT level) FROM lake.db.`dict_pk$files`"));
  }
}
