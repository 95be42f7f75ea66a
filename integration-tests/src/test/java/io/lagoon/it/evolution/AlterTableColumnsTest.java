package io.lagoon.it.evolution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ALTER TABLE column changes in SQL: columns renamed (nested fields too), widened, added first,
 * after a column or last, dropped and re-added, moved, commented and made nullable, with rows
 * written under every schema version; reads answer as Paimon 1.3.1 reads the same table, before
 * and after compaction; refused changes name what is wrong and leave the schema as it was.
 */
@RequiresPaimon131
class AlterTableColumnsTest extends LagoonSparkTest {

  @BeforeAll
  static void withProcedures() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE lake.alt");
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"parquet", "orc"})
  void appendTableEvolvesOverSchemaVersions(String format) {
    String name = "ap_" + format;
    sql("CREATE TABLE lake.alt." + name + " (id INT, name STRING, score INT, price FLOAT, amount DECIMAL(5,2), "
        + "s STRUCT<a: INT, b: STRING>, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES ('file.format' = '" + format + "')");
    evolve(name);
    checkAgainstPaimon(name);
    sql("CALL lake.sys.compact(table => 'alt." + name + "', compact_strategy => 'full')");
    checkAgainstPaimon(name);
  }

  @Test
  void primaryKeyTableEvolvesOverSchemaVersions() {
    sql("CREATE TABLE lake.alt.pk (id INT NOT NULL, name STRING, score INT, price FLOAT, amount DECIMAL(5,2), "
        + "s STRUCT<a: INT, b: STRING>, dt STRING) PARTITIONED BY (dt) "
        + "TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '2')");
    evolve("pk");
    checkAgainstPaimon("pk");
    sql("CALL lake.sys.compact(table => 'alt.pk', compact_strategy => 'full')");
    checkAgainstPaimon("pk");
  }

  /** Three schema versions with rows written under each (ids 1-4, 3-6, 5-8: later keys overlap earlier ones). */
  private void evolve(String name) {
    String t = "lake.alt." + name;
    sql("INSERT INTO " + t + " VALUES (1, 'a', 10, 1.5, 1.25, named_struct('a', 1, 'b', 'x'), 'd1'), "
        + "(2, NULL, 20, 2.5, 2.25, named_struct('a', 2, 'b', 'y'), 'd1'), (3, 'c', 30, 3.5, 3.25, NULL, 'd2'), "
        + "(4, 'd', 40, 4.5, 4.25, named_struct('a', 4, 'b', NULL), 'd2')");
    sql("ALTER TABLE " + t + " RENAME COLUMN name TO full_name");
    sql("ALTER TABLE " + t + " ALTER COLUMN score TYPE BIGINT");
    sql("ALTER TABLE " + t + " ALTER COLUMN price TYPE DOUBLE");
    sql("ALTER TABLE " + t + " ALTER COLUMN amount TYPE DECIMAL(12,2)");
    sql("ALTER TABLE " + t + " RENAME COLUMN s.b TO bb");
    sql("ALTER TABLE " + t + " ADD COLUMN extra STRING AFTER id");
    sql("ALTER TABLE " + t + " ADD COLUMN lead INT FIRST");
    assertEquals(List.of("lead", "id", "extra", "full_name", "score", "price", "amount", "s", "dt"),
        List.of(sql("SELECT * FROM " + t).schema().fieldNames()));
    sql("INSERT INTO " + t + " VALUES (100, 3, 'e3', 'c2', 30000000000, 3.25, 1234567.50, named_struct('a', 3, 'bb', 'z'), 'd2'), "
        + "(101, 5, NULL, 'e', 50, 5.75, 5.50, named_struct('a', 5, 'bb', 'w'), 'd1'), "
        + "(102, 6, 'e6', 'f', 60, 6.75, 6.50, NULL, 'd2')");
    sql("ALTER TABLE " + t + " DROP COLUMN extra");
    sql("ALTER TABLE " + t + " ADD COLUMNS (extra STRING COMMENT 'again')");
    sql("ALTER TABLE " + t + " ALTER COLUMN full_name COMMENT 'the whole name'");
    sql("ALTER TABLE " + t + " ALTER COLUMN score AFTER amount");
    sql("ALTER TABLE " + t + " ADD COLUMN s.c INT FIRST");
    sql("ALTER TABLE " + t + " ALTER COLUMN s.a TYPE BIGINT");
    sql("INSERT INTO " + t + " (lead, id, full_name, price, amount, score, s, dt, extra) VALUES "
        + "(200, 5, 'e5', 5.5, 5.5, 55, named_struct('c', 7, 'a', 50000000000, 'bb', 'v'), 'd1', 'x5'), "
        + "(201, 8, 'h', 8.5, 8.5, 80, NULL, 'd1', NULL)");
  }

  private void checkAgainstPaimon(String name) {
    String t = "lake.alt." + name;
    Path dir = warehouse.resolve("alt.db").resolve(name);
    List<String> paimon = PaimonOracle.readRows(dir);
    // In column batches (structs too), then row by row.
    for (String vectorized : new String[] {"true", "false"}) {
      spark.conf().set("spark.sql.parquet.enableVectorizedReader", vectorized);
      try {
        assertEquals(paimon, SparkRows.renderAll(sql("SELECT * FROM " + t)), "as Paimon reads it, vectorized " + vectorized);
        assertEquals(rows("SELECT id, s.c, s.bb FROM " + t + " WHERE s.a > 3"),
            rows("SELECT id, s.c, s.bb FROM " + t + " WHERE s.a + 0 > 3"), "a filter on a widened struct field");
      } finally {
        spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
      }
    }
    assertEquals(List.of("lead", "id", "full_name", "price", "amount", "score", "s", "dt", "extra"),
        List.of(sql("SELECT * FROM " + t).schema().fieldNames()));
    assertEquals(List.of("2,null,20,null"), rows("SELECT id, full_name, score, extra FROM " + t + " WHERE id = 2"));
    assertEquals(List.of("1,a,x"), rows("SELECT id, full_name, s.bb FROM " + t + " WHERE id = 1"));
    assertEquals(List.of("1,[null,1,x]"), rows("SELECT id, s FROM " + t + " WHERE id = 1"),
        "a struct field added later is null in older files, a widened one cast");
    assertEquals(List.of("4,null,4,null"), rows("SELECT id, s.c, s.a, s.bb FROM " + t + " WHERE id = 4"));
    assertEquals(List.of("6,null"), rows("SELECT id, s FROM " + t + " WHERE id = 6"), "a null struct stays null");
    assertEquals(List.of("1,1.5,1.25"), rows("SELECT id, price, amount FROM " + t + " WHERE id = 1"));
    assertEquals(List.of("8"), rows("SELECT id FROM " + t + " WHERE extra IS NULL AND lead = 201"));
    assertEquals(List.of("the whole name"), List.of(sql("SELECT * FROM " + t).schema().apply("full_name").getComment().get()));
    if (name.startsWith("pk")) {
      // Keys 3 and 5 were written again under later schemas: the newest row wins.
      assertEquals(List.of("3,c2,30000000000", "5,e5,55"),
          rows("SELECT id, full_name, score FROM " + t + " WHERE id IN (3, 5)"));
      assertEquals(List.of("7"), rows("SELECT count(*) FROM " + t));
    } else {
      assertEquals(List.of("9"), rows("SELECT count(*) FROM " + t));
      assertEquals(List.of("3,c2,30000000000"), rows("SELECT id, full_name, score FROM " + t + " WHERE score > 100"));
    }
  }

  @Test
  void refusedChangesNameTheProblemAndLeaveTheSchema() {
    sql("CREATE TABLE lake.alt.bad (id INT NOT NULL, v BIGINT, w STRING, s STRUCT<a: INT>, dt STRING) PARTITIONED BY (dt) "
        + "TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '1', 'file-index.bloom-filter.columns' = 'w')");
    sql("INSERT INTO lake.alt.bad VALUES (1, 2, 'x', named_struct('a', 1), 'd')");
    long schema = schemaId("bad");
    String[][] cases = {
        {"ALTER TABLE lake.alt.bad ALTER COLUMN v TYPE INT", "v"},
        {"ALTER TABLE lake.alt.bad DROP COLUMN dt", "partition column dt"},
        {"ALTER TABLE lake.alt.bad RENAME COLUMN id TO key", "primary-key column id"},
        {"ALTER TABLE lake.alt.bad ALTER COLUMN id TYPE BIGINT", "primary-key column id"},
        {"ALTER TABLE lake.alt.bad ADD COLUMN n INT NOT NULL", "NOT NULL"},
        {"ALTER TABLE lake.alt.bad ALTER COLUMN w SET NOT NULL", "non-nullable"},
        {"ALTER TABLE lake.alt.bad RENAME COLUMN w TO w2", "file-index.bloom-filter.columns"},
        {"ALTER TABLE lake.alt.bad ADD COLUMN s.a STRING", "already exists"},
        {"ALTER TABLE lake.alt.bad DROP COLUMN s.a", "only field"},
        {"ALTER TABLE lake.alt.bad ALTER COLUMN nope TYPE BIGINT", "nope"},
        {"ALTER TABLE lake.alt.bad RENAME COLUMN v TO w", "w"},
    };
    for (String[] c : cases) {
      Exception e = assertThrows(Exception.class, () -> sql(c[0]), c[0]);
      assertTrue(String.valueOf(e.getMessage()).contains(c[1]), c[0] + " -> " + e.getMessage());
      assertEquals(schema, schemaId("bad"), "unchanged after " + c[0]);
    }
    assertEquals(List.of("1,2,x,[1],d"), rows("SELECT * FROM lake.alt.bad"));
  }

  private long schemaId(String name) {
    try {
      return io.lagoon.core.table.FileStoreTable.load(new io.lagoon.core.fs.FileIO(new org.apache.hadoop.conf.Configuration()),
          new org.apache.hadoop.fs.Path(warehouse.resolve("alt.db").resolve(name).toUri()), "alt." + name).schema().id();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
