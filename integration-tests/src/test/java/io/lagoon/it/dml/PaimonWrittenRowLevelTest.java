package io.lagoon.it.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.Fixtures;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * DELETE, UPDATE and MERGE by Lagoon on tables real Paimon wrote (the 1.3.1 and 0.9 fixtures: an
 * append table, a primary-key table with deletion vectors, a partitioned dynamic-bucket primary-key
 * table, whose HASH index Lagoon keeps), each
 * checked against the same statement applied by plain Spark to a copy of the rows, and read back
 * by Paimon 1.3.1.
 */
@RequiresPaimon131
class PaimonWrittenRowLevelTest extends LagoonSparkTest {
  @TempDir
  static Path tmp;

  private static int copies;

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
      Fixtures.PAIMON_1_3_1 + ",append_t,t.id = s.id",
      Fixtures.PAIMON_1_3_1 + ",pk_dv,t.id = s.id",
      Fixtures.PAIMON_0_9 + ",append_t,t.id = s.id",
      Fixtures.PAIMON_0_9 + ",pk_dv,t.id = s.id",
      Fixtures.PAIMON_1_3_1 + ",pk_part,t.id = s.id AND t.d = s.d",
      Fixtures.PAIMON_0_9 + ",pk_part,t.id = s.id AND t.d = s.d"})
  void statementsOnPaimonWrittenTables(String fixture, String name, String on) throws Exception {
    String catalog = "pw" + (++copies);
    Path copy = Fixtures.copyWarehouse(fixture, java.nio.file.Files.createDirectory(tmp.resolve(catalog)));
    spark.conf().set("spark.sql.catalog." + catalog, "io.lagoon.spark.LagoonCatalog");
    spark.conf().set("spark.sql.catalog." + catalog + ".warehouse", copy.toUri().toString());
    String t = catalog + ".db." + name;
    Path dir = copy.resolve("db.db").resolve(name);

    step(t, dir, "DELETE FROM " + t + " WHERE id = 3", "SELECT * FROM before WHERE id <> 3");
    step(t, dir, "UPDATE " + t + " SET name = concat(coalesce(name, ''), '!'), amount = amount - 1 WHERE id % 2 = 0",
        "SELECT id, big, IF(id % 2 = 0, concat(coalesce(name, ''), '!'), name) AS name, score, "
            + "IF(id % 2 = 0, amount - 1, amount) AS amount, d, ts FROM before");
    String source = "(SELECT id, big, upper(name) AS name, score, amount, d, ts FROM before WHERE id >= 4 "
        + "UNION ALL SELECT 100, 1, 'new', 0.5, 1.00, DATE'2024-02-01', TIMESTAMP_NTZ'2024-02-01 00:00:00')";
    step(t, dir, "MERGE INTO " + t + " t USING " + source + " s ON " + on
            + " WHEN MATCHED THEN UPDATE SET t.name = s.name WHEN NOT MATCHED THEN INSERT *",
        "SELECT t.id, t.big, coalesce(s.name, t.name) AS name, t.score, t.amount, t.d, t.ts FROM before t LEFT JOIN "
            + source + " s ON " + on + " UNION ALL SELECT * FROM " + source + " s WHERE id = 100");
  }

  /** Runs a statement and checks the table against the expected query over the rows before it. */
  private static void step(String table, Path dir, String statement, String expected) {
    Dataset<Row> current = spark.table(table);
    spark.createDataFrame(current.collectAsList(), current.schema()).createOrReplaceTempView("before");
    List<String> want = rows(expected);
    sql(statement);
    assertEquals(want, rows("SELECT * FROM " + table), statement);
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM " + table)), PaimonOracle.readRows(dir),
        "Paimon 1.3.1 reads what Lagoon reads after: " + statement);
    assertTrue(!want.isEmpty());
  }
}
