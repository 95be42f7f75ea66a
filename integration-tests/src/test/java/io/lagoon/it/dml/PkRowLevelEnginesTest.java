package io.lagoon.it.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.ddl.WarehouseListing;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Row-level statements per merge engine, as Paimon defines them: partial-update keeps what a
 * statement leaves unset, {@code sequence.field} orders a statement's rows like any others, and
 * what an engine cannot apply is refused with the reason and the option that allows it, the
 * table unchanged.
 */
class PkRowLevelEnginesTest extends LagoonSparkTest {
  private static final AtomicInteger TABLES = new AtomicInteger();

  @BeforeAll
  static void ns() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.eng");
  }

  private static String table(String properties) {
    String t = "lake.eng.t" + TABLES.incrementAndGet();
    sql("CREATE TABLE " + t + " (id INT NOT NULL, a STRING, b INT, ts BIGINT) TBLPROPERTIES ('primary-key' = 'id', "
        + "'bucket' = '2'" + (properties.isEmpty() ? "" : ", " + properties) + ")");
    sql("INSERT INTO " + t + " VALUES (1, 'a1', 10, 100), (2, 'a2', 20, 200), (3, 'a3', 30, 300)");
    return t;
  }

  private static void refused(String table, String statement, String... inMessage) {
    java.util.List<String> before = rows("SELECT * FROM " + table);
    Throwable e = assertThrows(Throwable.class, () -> sql(statement).collectAsList());
    String messages = WarehouseListing.messages(e);
    for (String m : inMessage) assertTrue(messages.contains(m), "error should mention '" + m + "': " + messages);
    assertEquals(before, rows("SELECT * FROM " + table), "a refused statement changes nothing");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ", 'deletion-vectors.enabled' = 'true'"})
  void partialUpdateKeepsWhatAStatementLeavesUnset(String dv) {
    String t = table("'merge-engine' = 'partial-update'" + dv);
    sql("UPDATE " + t + " SET a = 'x' WHERE id = 1");
    sql("MERGE INTO " + t + " t USING (SELECT 2 AS id, 99 AS b) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.b = s.b "
        + "WHEN NOT MATCHED THEN INSERT (id, b) VALUES (s.id, s.b)");
    sql("MERGE INTO " + t + " t USING (SELECT 7 AS id, 70 AS b) s ON t.id = s.id "
        + "WHEN NOT MATCHED THEN INSERT (id, b) VALUES (s.id, s.b)");
    // As in Paimon, a null never overwrites on partial-update: setting a column to NULL keeps it.
    sql("UPDATE " + t + " SET a = NULL WHERE id = 3");
    assertEquals(list("1,x,10,100", "2,a2,99,200", "3,a3,30,300", "7,null,70,null"), rows("SELECT * FROM " + t));
    refused(t, "DELETE FROM " + t + " WHERE id = 1", "partial-update", "partial-update.remove-record-on-delete");
    refused(t, "UPDATE " + t + " SET id = 9 WHERE id = 1", "changes the primary key",
        "partial-update.remove-record-on-delete");
    refused(t, "MERGE INTO " + t + " t USING (SELECT 1 AS id) s ON t.id = s.id WHEN MATCHED THEN DELETE",
        "partial-update.remove-record-on-delete");
  }

  @Test
  void partialUpdateDeletesWithRemoveRecordOnDelete() {
    String t = table("'merge-engine' = 'partial-update', 'partial-update.remove-record-on-delete' = 'true'");
    sql("DELETE FROM " + t + " WHERE id = 1");
    sql("UPDATE " + t + " SET id = 9 WHERE id = 2");
    assertEquals(list("3,a3,30,300", "9,a2,20,200"), rows("SELECT * FROM " + t));
  }

  @Test
  void aggregationTakesOnlyDeletesAndOnlyWithItsOption() {
    String t = table("'merge-engine' = 'aggregation', 'fields.b.aggregate-function' = 'sum'");
    refused(t, "UPDATE " + t + " SET b = 1 WHERE id = 1", "UPDATE", "aggregation", "aggregates");
    refused(t, "MERGE INTO " + t + " t USING (SELECT 1 AS id) s ON t.id = s.id WHEN MATCHED THEN DELETE", "MERGE",
        "aggregation");
    refused(t, "DELETE FROM " + t + " WHERE b > 15", "DELETE", "aggregation.remove-record-on-delete");
    String removable = table("'merge-engine' = 'aggregation', 'fields.b.aggregate-function' = 'sum', "
        + "'aggregation.remove-record-on-delete' = 'true'");
    sql("DELETE FROM " + removable + " WHERE b > 15");
    assertEquals(list("1,a1,10,100"), rows("SELECT * FROM " + removable));
  }

  @Test
  void firstRowAndIgnoreDeleteRefuseWhatTheyWouldDrop() {
    String t = table("'merge-engine' = 'first-row'");
    refused(t, "DELETE FROM " + t + " WHERE id = 1", "first-row");
    refused(t, "UPDATE " + t + " SET a = 'x'", "first-row");
    refused(t, "MERGE INTO " + t + " t USING (SELECT 1 AS id) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET a = 'x'",
        "first-row");
    String ignoring = table("'ignore-delete' = 'true'");
    refused(ignoring, "DELETE FROM " + ignoring + " WHERE id = 1", "ignore-delete");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ", 'deletion-vectors.enabled' = 'true'"})
  void sequenceFieldOrdersAStatementsRowsLikeAnyOthers(String dv) {
    String t = "lake.eng.t" + TABLES.incrementAndGet();
    sql("CREATE TABLE " + t + " (id INT NOT NULL, a STRING, b INT, ts BIGINT NOT NULL) TBLPROPERTIES ("
        + "'primary-key' = 'id', 'bucket' = '2', 'sequence.field' = 'ts'" + dv + ")");
    sql("INSERT INTO " + t + " VALUES (1, 'a1', 10, 100), (2, 'a2', 20, 200), (3, 'a3', 30, 300)");
    sql("DELETE FROM " + t + " WHERE id = 2");
    sql("UPDATE " + t + " SET a = 'same-ts' WHERE id = 1");
    // A version with a lower sequence value loses to the row it would replace, as in Paimon.
    sql("UPDATE " + t + " SET a = 'older', ts = 50 WHERE id = 3");
    sql("MERGE INTO " + t + " t USING (SELECT 1 AS id, 500L AS ts) s ON t.id = s.id "
        + "WHEN MATCHED THEN UPDATE SET t.b = 11, t.ts = s.ts");
    assertEquals(list("1,same-ts,11,500", "3,a3,30,300"), rows("SELECT * FROM " + t));
    refused(t, "UPDATE " + t + " SET id = 8 WHERE id = 1", "changes the primary key", "sequence.field");
    String nullable = table("'sequence.field' = 'ts'" + dv);
    refused(nullable, "DELETE FROM " + nullable + " WHERE id = 1", "'ts' is nullable", "NOT NULL");
  }

  @Test
  void badInputIsRefusedNamingIt() {
    String t = table("");
    refused(t, "UPDATE " + t + " SET b = 'not a number' WHERE id = 1", "b");
    refused(t, "UPDATE " + t + " SET nope = 1", "nope");
    refused(t, "DELETE FROM " + t + " WHERE rand() < 0.5", "deterministic");
    refused(t, "MERGE INTO " + t + " t USING (SELECT 1 AS id) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.id = NULL",
        "id");
    refused(t, "MERGE INTO " + t + " t USING (SELECT CAST(NULL AS INT) AS id) s ON t.id = s.id "
        + "WHEN NOT MATCHED THEN INSERT (id, a) VALUES (s.id, 'x')", "null");
  }
}
