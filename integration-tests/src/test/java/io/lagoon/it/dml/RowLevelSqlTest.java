package io.lagoon.it.dml;

import static io.lagoon.it.dml.MergeOracle.bySourceDelete;
import static io.lagoon.it.dml.MergeOracle.bySourceUpdate;
import static io.lagoon.it.dml.MergeOracle.matchedDelete;
import static io.lagoon.it.dml.MergeOracle.matchedUpdate;
import static io.lagoon.it.dml.MergeOracle.notMatchedInsert;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.ddl.WarehouseListing;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every DELETE, UPDATE and MERGE form on every table kind, each checked against the same statement
 * applied by plain Spark SQL to an in-memory copy of the rows ({@link MergeOracle}), and against
 * what Paimon 1.3.1 reads afterwards. Nulls in values and join keys, empty sources, sources with
 * duplicates and statements that change nothing (no new snapshot) are among the cases.
 */
@RequiresPaimon131
class RowLevelSqlTest extends LagoonSparkTest {
  /** Table kinds: how the table is created, and whether it has a primary key. */
  enum Kind {
    APPEND("PARTITIONED BY (p)", false),
    APPEND_DV("PARTITIONED BY (p) TBLPROPERTIES ('deletion-vectors.enabled' = 'true')", false),
    PK("PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '2')", true),
    PK_DV("PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '2', "
        + "'deletion-vectors.enabled' = 'true')", true),
    PK_FLAT("TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '3')", true);

    final String ddl;
    final boolean pk;

    Kind(String ddl, boolean pk) {
      this.ddl = ddl;
      this.pk = pk;
    }
  }

  private static final AtomicInteger TABLES = new AtomicInteger();
  private static final String ON = "t.id = s.id AND t.p = s.p";

  /** A new session with Lagoon's SQL extensions, and the views again. */
  static void useExtensions() {
    spark.stop();
    spark = newSession(warehouse, java.util.Map.of("spark.sql.extensions",
        "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    views();
  }

  @BeforeAll
  static void views() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.dml");
    List<String> rows = new ArrayList<>();
    for (int i = 1; i <= 24; i++) {
      rows.add("(" + i + ", " + (i % 5 == 0 ? "CAST(NULL AS STRING)" : "'v" + i + "'") + ", "
          + (i % 7 == 0 ? "CAST(NULL AS INT)" : Integer.toString(i)) + ", '" + "abc".charAt(i % 3) + "')");
    }
    sql("CREATE OR REPLACE TEMP VIEW initial AS SELECT * FROM VALUES " + String.join(", ", rows) + " AS x(id, v, n, p)");
    // Matches for ids 2, 5, 9, 14, 20 (with their partitions), one that matches only by id, new ids.
    sql("CREATE OR REPLACE TEMP VIEW src AS SELECT * FROM VALUES (2, 's2', 200, 'c'), (5, 's5', CAST(NULL AS INT), 'c'), "
        + "(9, CAST(NULL AS STRING), 900, 'a'), (14, 's14', 1400, 'c'), (20, 's20', 2000, 'c'), (3, 'wrong-p', 3, 'b'), "
        + "(101, 'new1', 1, 'a'), (102, 'new2', CAST(NULL AS INT), 'b'), (103, CAST(NULL AS STRING), 3, 'c') AS x(id, v, n, p)");
    sql("CREATE OR REPLACE TEMP VIEW src_nullkey AS SELECT * FROM src UNION ALL SELECT CAST(NULL AS INT), 'nokey', 0, 'a'");
    sql("CREATE OR REPLACE TEMP VIEW src_empty AS SELECT * FROM src WHERE false");
    sql("CREATE OR REPLACE TEMP VIEW src_dup AS SELECT * FROM src UNION ALL SELECT 2, 'again', 0, 'c'");
  }

  /** A statement, and the query of plain Spark over the views that gives the rows after it. */
  static final class Case {
    final String name;
    final String statement; // with {t} for the Lagoon table
    final String expected; // with {copy} for the view of the initial rows
    final boolean changesNothing;

    Case(String name, String statement, String expected, boolean changesNothing) {
      this.name = name;
      this.statement = statement;
      this.expected = expected;
      this.changesNothing = changesNothing;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private static Case delete(String name, String condition) {
    return new Case(name, "DELETE FROM {t} WHERE " + condition, MergeOracle.expectedDelete("{copy}", condition), false);
  }

  private static Case update(String name, String condition, String... sets) {
    List<String> values = new ArrayList<>();
    List<String> assignments = new ArrayList<>();
    for (int i = 0; i < sets.length; i++) {
      values.add(sets[i].isEmpty() ? null : sets[i]);
      if (!sets[i].isEmpty()) assignments.add(MergeOracle.COLUMNS.get(i) + " = " + sets[i]);
    }
    return new Case(name, "UPDATE {t} SET " + String.join(", ", assignments) + " WHERE " + condition,
        MergeOracle.expectedUpdate("{copy}", values, condition), false);
  }

  static Case merge(String name, String source, String on, MergeOracle.When... clauses) {
    return new Case(name, MergeOracle.mergeStatement("{t}", source, on, List.of(clauses)),
        MergeOracle.expectedMerge("{copy}", source, on, List.of(clauses)), false);
  }

  private static Case noChange(Case c) {
    return new Case(c.name, c.statement, c.expected, true);
  }

  static List<Case> cases() {
    return List.of(
        delete("delete by value", "n > 15"),
        delete("delete where null", "v IS NULL"),
        delete("delete with null-valued condition", "n % 2 = 0"),
        delete("delete a whole partition", "p = 'b'"),
        delete("delete partitions and values", "p = 'a' OR id > 20"),
        noChange(delete("delete nothing", "id = 999")),
        delete("delete with IN subquery", "id IN (SELECT id FROM src WHERE n IS NOT NULL)"),
        delete("delete everything", "true"),
        update("update two columns", "n < 10", "", "concat(v, '!')", "n * 2", ""),
        update("update to null", "id % 3 = 0", "", "CAST(NULL AS STRING)", "", ""),
        update("update keys", "p = 'a'", "id + 100", "", "", ""),
        update("update keys into each other", "id >= 10", "id + 1", "", "", ""),
        update("update the partition", "id < 5", "", "", "", "'c'"),
        noChange(update("update nothing", "id = 999", "", "'x'", "", "")),
        merge("merge upsert", "src", ON, matchedUpdate(null, "s.id", "s.v", "s.n", "s.p"),
            notMatchedInsert(null, "s.id", "s.v", "s.n", "s.p")),
        merge("merge update delete insert", "src", ON, matchedDelete("s.n IS NULL"),
            matchedUpdate("t.n < 10", "", "s.v", "", ""), matchedUpdate(null, "", "", "t.n + s.n", ""),
            notMatchedInsert("s.id > 101", "s.id", "s.v", "0", "s.p")),
        merge("merge by source", "src", ON, matchedUpdate(null, "", "'matched'", "", ""),
            bySourceDelete("t.n > 20"), bySourceUpdate(null, "", "", "-1", "")),
        merge("merge from a subquery", "(SELECT id, upper(v) AS v, n, p FROM src WHERE id < 100)", ON,
            matchedUpdate(null, "", "s.v", "", "")),
        noChange(merge("merge an empty source", "src_empty", ON, matchedUpdate(null, "", "s.v", "", ""),
            notMatchedInsert(null, "s.id", "s.v", "s.n", "s.p"))),
        merge("merge an empty source by source", "src_empty", ON, bySourceDelete("t.p = 'a'")),
        merge("merge on a non-key condition", "src", "t.id = s.id", matchedUpdate(null, "", "s.v", "", "")));
  }

  static Stream<Arguments> kindsAndCases() {
    List<Arguments> out = new ArrayList<>();
    for (Kind k : Kind.values()) for (Case c : cases()) out.add(Arguments.of(k, c));
    return out.stream();
  }

  private static String createTable(Kind kind) {
    String t = "lake.dml.t" + TABLES.incrementAndGet();
    sql("CREATE TABLE " + t + " (id INT" + (kind.pk ? " NOT NULL" : "") + ", v STRING, n INT, p STRING) " + kind.ddl);
    // Two commits, so there are several files per partition.
    sql("INSERT INTO " + t + " SELECT * FROM initial WHERE id % 2 = 0");
    sql("INSERT INTO " + t + " SELECT * FROM initial WHERE id % 2 = 1");
    return t;
  }

  private static Path dir(String table) {
    return warehouse.resolve("dml.db").resolve(table.substring(table.lastIndexOf('.') + 1));
  }

  private static long latestSnapshot(String table) {
    try (Stream<Path> s = java.nio.file.Files.list(dir(table).resolve("snapshot"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.matches("snapshot-\\d+"))
          .mapToLong(n -> Long.parseLong(n.substring("snapshot-".length()))).max().orElse(0);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("kindsAndCases")
  void statementMatchesPlainSpark(Kind kind, Case c) {
    String t = createTable(kind);
    long before = latestSnapshot(t);
    // A primary-key table upserts what MERGE inserts: match on its key so inserts are new keys.
    String on = kind == Kind.PK_FLAT ? "t.id = s.id" : ON;
    String statement = c.statement.replace("{t}", t).replace(ON, on);
    String expected = c.expected.replace("{copy}", "initial").replace(ON, on);

    sql(statement);

    List<String> want = rows(expected);
    if (!c.changesNothing) assertTrue(!want.equals(rows("SELECT * FROM initial")), "the case changes rows: " + c.name);
    assertEquals(want, rows("SELECT id, v, n, p FROM " + t), kind + " " + c.name + ": " + statement);
    if (c.changesNothing) assertEquals(before, latestSnapshot(t), "a statement that changes nothing commits nothing");
    else assertTrue(latestSnapshot(t) > before, "the statement committed");
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM " + t)), PaimonOracle.readRows(dir(t)),
        kind + " " + c.name + ": Paimon 1.3.1 reads what Lagoon reads");
  }

  static Stream<Kind> kinds() {
    return Arrays.stream(Kind.values());
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void aSourceRowMatchingTwiceRaisesSparksCardinalityErrorAndChangesNothing(Kind kind) {
    String t = createTable(kind);
    assertEquals(List.of("1"), rows(MergeOracle.multipleMatches("initial", "src_dup", ON)));
    List<String> before = rows("SELECT * FROM " + t);
    long snapshot = latestSnapshot(t);
    // Tasks that finished before the failure may leave unreferenced files; nothing is committed.
    Throwable e = assertThrows(Throwable.class, () -> sql(MergeOracle.mergeStatement(t, "src_dup", ON,
        List.of(matchedUpdate(null, "", "s.v", "", "")))).collectAsList());
    assertTrue(WarehouseListing.messages(e).contains("MERGE_CARDINALITY_VIOLATION")
        || WarehouseListing.messages(e).toLowerCase().contains("multiple"), WarehouseListing.messages(e));
    assertEquals(snapshot, latestSnapshot(t), "nothing committed");
    assertEquals(before, rows("SELECT * FROM " + t));
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void nullKeysInTheSource(Kind kind) {
    String t = createTable(kind);
    String statement = MergeOracle.mergeStatement(t, "src_nullkey", ON,
        List.of(matchedUpdate(null, "", "s.v", "", ""), notMatchedInsert(null, "s.id", "s.v", "s.n", "s.p")));
    if (!kind.pk) {
      sql(statement);
      assertEquals(rows(MergeOracle.expectedMerge("initial", "src_nullkey", ON,
          List.of(matchedUpdate(null, "", "s.v", "", ""), notMatchedInsert(null, "s.id", "s.v", "s.n", "s.p")))),
          rows("SELECT id, v, n, p FROM " + t), "a null join key never matches; its row is inserted");
      return;
    }
    // A primary key cannot be null: the insert is refused and the table stays as it was.
    List<String> before = rows("SELECT * FROM " + t);
    long snapshot = latestSnapshot(t);
    Throwable e = assertThrows(Throwable.class, () -> sql(statement).collectAsList());
    assertTrue(WarehouseListing.messages(e).toLowerCase().contains("null"), WarehouseListing.messages(e));
    assertEquals(snapshot, latestSnapshot(t), "nothing committed");
    assertEquals(before, rows("SELECT * FROM " + t));
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void theSourceCanBeATableAViewOrADataFrame(Kind kind) {
    String t = createTable(kind);
    String srcTable = "lake.dml.src" + TABLES.incrementAndGet();
    sql("CREATE TABLE " + srcTable + " AS SELECT * FROM src WHERE id < 100");
    sql("MERGE INTO " + t + " t USING " + srcTable + " s ON " + ON + " WHEN MATCHED THEN UPDATE SET t.v = s.v");
    spark.table("src").where("id > 100").createOrReplaceTempView("src_df");
    sql("MERGE INTO " + t + " t USING src_df s ON " + ON + " WHEN NOT MATCHED THEN INSERT *");
    String expected = "SELECT id, v, n, p FROM (" + MergeOracle.expectedMerge("initial", "(SELECT * FROM src WHERE id < 100)",
        ON, List.of(matchedUpdate(null, "", "s.v", "", ""))) + ") UNION ALL SELECT * FROM src WHERE id > 100";
    assertEquals(rows(expected), rows("SELECT id, v, n, p FROM " + t));
    assertThrows(Throwable.class, () -> sql("MERGE INTO " + t + " t USING src s ON " + ON
        + " WHEN MATCHED THEN UPDATE SET t.nope = s.v").collectAsList());
  }
}
