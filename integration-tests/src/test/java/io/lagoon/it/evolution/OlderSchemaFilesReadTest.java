package io.lagoon.it.evolution;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Data files written under older schemas, read by field id: Paimon evolves a table over three
 * schema versions (a column renamed, integer and floating-point and decimal columns widened, a
 * nested field renamed, a column added, one dropped and re-added under its old name), with rows
 * written at each; Lagoon reads every version's files as Paimon does, row by row and columnar,
 * with filters on the changed columns, and after its own compaction rewrote them.
 */
@RequiresPaimon131
class OlderSchemaFilesReadTest extends LagoonSparkTest {

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void appendTableFilesOfEverySchemaReadByFieldId(String format) throws Exception {
    Path dir = evolve("ap_" + format, format, false);
    checkReads("ap_" + format, dir);
    sql("CALL lake.sys.compact(table => 'ev.ap_" + format + "', compact_strategy => 'full')");
    checkReads("ap_" + format, dir);
  }

  @org.junit.jupiter.api.Test
  void sortingRewritesFilesOfEverySchemaInTheCurrentOne() throws Exception {
    Path dir = evolve("sorted", "parquet", false);
    sql("CALL lake.sys.compact(table => 'ev.sorted', order_strategy => 'zorder', order_by => 'score,id')");
    checkReads("sorted", dir);
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void primaryKeyTableFilesOfEverySchemaMergedByFieldId(String format) throws Exception {
    Path dir = evolve("pk_" + format, format, true);
    checkReads("pk_" + format, dir);
    sql("CALL lake.sys.compact(table => 'ev.pk_" + format + "', compact_strategy => 'full')");
    checkReads("pk_" + format, dir);
  }

  @org.junit.jupiter.api.BeforeAll
  static void withProcedures() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
  }

  /** The table as Paimon evolves it, rows written under each schema; returns its folder. */
  private Path evolve(String name, String format, boolean pk) throws Exception {
    Schema.Builder b = Schema.newBuilder().column("id", DataTypes.INT().notNull()).column("name", DataTypes.STRING())
        .column("score", DataTypes.INT()).column("price", DataTypes.FLOAT()).column("amount", DataTypes.DECIMAL(5, 2))
        .column("s", DataTypes.ROW(DataTypes.FIELD(10, "a", DataTypes.INT()), DataTypes.FIELD(11, "b", DataTypes.STRING())))
        .column("gone", DataTypes.STRING())
        .option("file.format", format).option("write-only", "true");
    if (pk) b.primaryKey("id").option("bucket", "2");
    Path dir = PaimonOracle.createTable(warehouse, "ev", name, b.build());
    RowType v0 = PaimonOracle.openTable(dir).rowType();
    List<GenericRow> rows = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      rows.add(PaimonOracle.row(v0, i, i % 6 == 5 ? null : "n" + i, i * 7, i + 0.5f, new BigDecimal(i + ".25"),
          GenericRow.of(i, org.apache.paimon.data.BinaryString.fromString("b" + i)), "g" + i));
    }
    PaimonOracle.writeRows(dir, rows);
    try (Catalog c = PaimonOracle.catalog(warehouse)) {
      c.alterTable(Identifier.create("ev", name), List.of(SchemaChange.renameColumn("name", "full_name"),
          SchemaChange.updateColumnType("score", DataTypes.BIGINT()), SchemaChange.updateColumnType("price", DataTypes.DOUBLE()),
          SchemaChange.updateColumnType("amount", DataTypes.DECIMAL(12, 2)),
          SchemaChange.renameColumn(new String[] {"s", "b"}, "bb"), SchemaChange.addColumn("extra", DataTypes.STRING())),
          false);
    }
    RowType v1 = PaimonOracle.openTable(dir).rowType();
    rows.clear();
    // Keys 30..69: on the primary-key table the first ten replace rows of the first schema.
    for (int i = 30; i < 70; i++) {
      rows.add(PaimonOracle.row(v1, i, "m" + i, 10_000_000_000L + i, i + 0.25, new BigDecimal("1234567." + (i % 10) + "0"),
          GenericRow.of(-i, org.apache.paimon.data.BinaryString.fromString("bb" + i)), "h" + i, i % 3 == 0 ? null : "x" + i));
    }
    PaimonOracle.writeRows(dir, rows);
    try (Catalog c = PaimonOracle.catalog(warehouse)) {
      c.alterTable(Identifier.create("ev", name), List.of(SchemaChange.dropColumn("gone")), false);
      c.alterTable(Identifier.create("ev", name), List.of(SchemaChange.addColumn("gone", DataTypes.INT())), false);
    }
    RowType v2 = PaimonOracle.openTable(dir).rowType();
    rows.clear();
    for (int i = 60; i < 90; i++) {
      rows.add(PaimonOracle.row(v2, i, "k" + i, (long) i, (double) i, new BigDecimal(i + ".50"),
          GenericRow.of(i, org.apache.paimon.data.BinaryString.fromString("c" + i)), "y" + i, i));
    }
    PaimonOracle.writeRows(dir, rows);
    return dir;
  }

  private void checkReads(String name, Path dir) {
    String t = "lake.ev." + name;
    List<String> paimon = PaimonOracle.readRows(dir);
    org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> all = sql("SELECT * FROM " + t);
    assertEquals(paimon, SparkRows.renderAll(all), "every column, as Paimon reads them");
    spark.createDataFrame(all.collectAsList(), all.schema()).createOrReplaceTempView("ev_rows");
    // Atomic columns only: Spark reads them as column batches.
    String columns = "SELECT id, full_name, score, price, amount, gone, extra FROM ";
    assertEquals(rows(columns + "ev_rows"), rows(columns + t), "columnar");
    String[] filters = {"full_name = 'n3'", "full_name LIKE 'm%'", "score > 10000000000", "score < 50",
        "price > 30.1", "amount > 1000", "gone IS NULL", "extra IS NOT NULL", "s.bb = 'b7'", "s.a < 0"};
    for (String f : filters) {
      assertEquals(rows("SELECT * FROM ev_rows WHERE " + f), rows("SELECT * FROM " + t + " WHERE " + f), f);
    }
    assertEquals(List.of("3,n3,21"), rows("SELECT id, full_name, score FROM " + t + " WHERE id = 3"));
    assertEquals(List.of("5,5.5,5.25"), rows("SELECT id, price, amount FROM " + t + " WHERE id = 5"));
    assertEquals(List.of("7,b7"), rows("SELECT s.a, s.bb FROM " + t + " WHERE id = 7"));
    assertEquals(List.of("30"), rows("SELECT count(*) FROM " + t + " WHERE gone IS NOT NULL"),
        "the re-added column is null in files written before it was");
    assertEquals(List.of("30"), rows("SELECT count(*) FROM " + t + " WHERE extra IS NULL AND id < 30"),
        "a column added later is null in older files");
  }
}
