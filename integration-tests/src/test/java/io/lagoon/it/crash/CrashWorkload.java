package io.lagoon.it.crash;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The tables the crash harness writes and the statements it runs on them, with the model each
 * state is checked against. Statement {@code i} of writer {@code w} touches only rows tagged
 * {@code w}, so two writers can share a table; statement numbers are never reused, so every
 * statement's effect is recognisable in the table.
 *
 * <ul>
 *   <li>{@link Kind#APPEND} and {@link Kind#APPEND_BUCKETED} (bucket-unaware, fixed buckets by
 *       {@code k}): inserts {@link #ROWS} rows tagged {@code (w, i)}. A statement is
 *       visible when all its rows are there, invisible when none is; anything else is partial.
 *       Every third statement is instead a copy-on-write UPDATE (every sixth a MERGE) that
 *       rewrites the files holding the writer's rows without changing a value ({@link #isRewrite}):
 *       a kill inside it must neither lose nor duplicate a row.
 *   <li>{@link Kind#PK} and {@link Kind#DV} (fixed buckets, the second with deletion vectors):
 *       sets the writer's {@link #ROWS} keys to {@code stmt = i}, by INSERT (an upsert) or, every
 *       third statement, by MERGE. All of them must show one statement; a mixture is a partially
 *       visible statement. {@link Kind#INPUT} also keeps each statement's records as changelog
 *       files: a statement's changelog is there whole or not at all.
 * </ul>
 *
 * <p>Every fifth statement ({@link #isMaintenance}) changes no row: it compacts the table
 * ({@code CALL sys.compact}), adds a column ({@code ALTER TABLE ... ADD COLUMN}, a new schema
 * version racing the writes, which name their columns and leave the added ones NULL) or expires
 * its old snapshots ({@code CALL sys.expire_snapshots}), in turn. A kill inside one must leave
 * every confirmed statement visible, none partially; racing writers must keep seeing their own
 * writes through them.
 *
 * <p>New statements are added here as later operations (indexes, ...) land: a statement, and what
 * its visibility means in the model.
 */
public final class CrashWorkload {
  public static final int ROWS = 2_000;

  /** The table kinds, each with its CREATE TABLE properties. */
  public enum Kind {
    /** With a Bloom filter index on the key: every write and compaction also writes index files. */
    APPEND("TBLPROPERTIES ('file-index.bloom-filter.columns' = 'k', 'file-index.in-manifest-threshold' = '1 b')"),
    APPEND_BUCKETED("TBLPROPERTIES ('bucket' = '3', 'bucket-key' = 'k')"),
    PK("TBLPROPERTIES ('primary-key' = 'k', 'bucket' = '2')"),
    DV("TBLPROPERTIES ('primary-key' = 'k', 'bucket' = '2', 'deletion-vectors.enabled' = 'true')"),
    /** Dynamic buckets, small enough that statements keep making new ones (and new HASH files). */
    DYNAMIC("TBLPROPERTIES ('primary-key' = 'k', 'dynamic-bucket.target-row-num' = '150')"),
    /**
     * Cross-partition upserts: the key leaves out the partition column (each writer's rows in its
     * own partition); every third statement from the second overwrites the writer's partition.
     */
    CROSS("PARTITIONED BY (w) TBLPROPERTIES ('primary-key' = 'k', 'dynamic-bucket.target-row-num' = '150')"),
    /** Postponed buckets, written as batch jobs write them: fixed buckets of the partition's count. */
    POSTPONED("TBLPROPERTIES ('primary-key' = 'k', 'bucket' = '-2', 'postpone.default-bucket-num' = '2')"),
    /** Changelog files beside the data ({@code 'changelog-producer' = 'input'}). */
    INPUT("TBLPROPERTIES ('primary-key' = 'k', 'bucket' = '2', 'changelog-producer' = 'input')");

    final String properties;

    Kind(String properties) {
      this.properties = properties;
    }

    /** Append tables (bucket-unaware or fixed-bucket): statements add rows, keys may repeat. */
    public boolean append() {
      return this == APPEND || this == APPEND_BUCKETED;
    }
  }

  private CrashWorkload() {}

  public static String create(String table, Kind kind) {
    return "CREATE TABLE " + table + " (k BIGINT NOT NULL, stmt INT, w INT) " + kind.properties;
  }

  public static String statement(String table, Kind kind, int writer, int i) {
    String name = table.substring(table.indexOf('.') + 1);
    if (isMaintenance(i)) {
      switch ((i / 5) % 3) {
        case 0:
          return "CALL lake.sys.compact(table => '" + name + "')";
        case 1:
          // Writers race on one table with the same numbers: the writer is in the name.
          return "ALTER TABLE " + table + " ADD COLUMN c" + writer + "_" + i + " INT";
        default:
          return "CALL lake.sys.expire_snapshots(table => '" + name + "', retain_max => 10, "
              + "older_than => '2999-01-01 00:00:00')";
      }
    }
    if (isRewrite(kind, i) && i % 6 == 0) {
      // A copy-on-write MERGE that changes no row: its NOT MATCHED clause never holds, but the plan
      // still finds the unmatched source rows.
      return "MERGE INTO " + table + " t USING (SELECT id AS k FROM range(0, " + ROWS + ") WHERE id % 3 = 0) s "
          + "ON t.k = s.k AND t.w = " + writer + " WHEN MATCHED THEN UPDATE SET t.k = s.k "
          + "WHEN NOT MATCHED AND s.k < 0 THEN INSERT (k, stmt, w) VALUES (s.k, 0, 0)";
    }
    if (isRewrite(kind, i)) return "UPDATE " + table + " SET k = k WHERE w = " + writer + " AND k % 3 = 0";
    long offset = kind.append() ? 0 : (long) writer * ROWS;
    String rows = "SELECT id + " + offset + " AS k, " + i + " AS stmt, " + writer + " AS w FROM range(0, " + ROWS + ")";
    if (!kind.append() && i % 3 == 0) {
      return "MERGE INTO " + table + " t USING (" + rows + ") s ON t.k = s.k WHEN MATCHED THEN UPDATE SET t.stmt = s.stmt "
          + "WHEN NOT MATCHED THEN INSERT (k, stmt, w) VALUES (s.k, s.stmt, s.w)";
    }
    if (kind == Kind.CROSS && i % 3 == 1) {
      // Overwrites the writer's own partition (where all its keys live) with all its keys.
      return "INSERT OVERWRITE " + table + " PARTITION (w = " + writer + ") (k, stmt) SELECT k, stmt FROM (" + rows + ")";
    }
    return "INSERT INTO " + table + " (k, stmt, w) " + rows;
  }

  /** Statements that rewrite existing rows and add none of their own (append tables), maintenance included. */
  public static boolean isRewrite(Kind kind, int i) {
    return isMaintenance(i) || kind.append() && i % 3 == 0;
  }

  /** Compaction, a schema change or snapshot expiry: no row changes. */
  public static boolean isMaintenance(int i) {
    return i % 5 == 4;
  }

  /** Rows per statement number of one writer, as the table shows them now. */
  public static Map<Integer, Long> visible(SparkSession spark, String table, int writer) {
    Map<Integer, Long> out = new TreeMap<>();
    for (Row r : spark.sql("SELECT stmt, count(*) FROM " + table + " WHERE w = " + writer + " GROUP BY stmt")
        .collectAsList()) {
      out.put(r.getInt(0), r.getLong(1));
    }
    return out;
  }

  /**
   * What is wrong with a writer's rows, or an empty list.
   *
   * @param done statements that returned (confirmed)
   * @param begun statements that started, confirmed or not; numbers above every begun one never ran
   */
  public static List<String> violations(Kind kind, Map<Integer, Long> visible, List<Integer> done, List<Integer> begun) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<Integer, Long> e : visible.entrySet()) {
      if (e.getValue() != ROWS) {
        out.add("statement " + e.getKey() + " is partially visible: " + e.getValue() + " of " + ROWS + " rows");
      }
      if (!begun.contains(e.getKey())) out.add("statement " + e.getKey() + " never ran but shows " + e.getValue() + " rows");
    }
    if (kind.append()) {
      for (int i : done) {
        if (!isRewrite(kind, i) && !visible.containsKey(i)) out.add("confirmed statement " + i + " is not visible");
      }
      return out;
    }
    if (visible.size() > 1) out.add("the keys show several statements at once: " + visible);
    int lastDone = -1;
    for (int i : done) if (!isMaintenance(i)) lastDone = i;
    int shown = visible.isEmpty() ? -1 : visible.keySet().iterator().next();
    if (shown < lastDone) {
      out.add("confirmed statement " + lastDone + " is not visible: the keys show " + (shown < 0 ? "nothing" : "statement " + shown));
    }
    return out;
  }
}
