package io.lagoon.it.pk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Interop of primary-key tables with the real Paimon 1.3.1: a table Lagoon wrote over many
 * commits (write-triggered compactions included) reads the same in Paimon for every merge engine;
 * Lagoon upserts into a table Paimon created and wrote land in the buckets Paimon expects, and
 * Paimon keeps writing after Lagoon; in deletion-vector mode each side's vectors and levels are
 * what the other expects.
 */
@RequiresPaimon131
class PkLagoonWritesPaimonReadsTest extends LagoonSparkTest {
  private static final String COLUMNS = "(id INT NOT NULL, a INT, b STRING, c BIGINT, ts BIGINT, op STRING)";

  @BeforeAll
  static void ns() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.pki");
  }

  static Stream<Arguments> engines() {
    return Stream.of(
        Arguments.of("dedup_parquet", "'file.format' = 'parquet'", 0.15),
        Arguments.of("dedup_orc", "'file.format' = 'orc'", 0.15),
        Arguments.of("seqfield", "'sequence.field' = 'ts'", 0.1),
        Arguments.of("partial", "'merge-engine' = 'partial-update', 'partial-update.remove-record-on-delete' = 'true'", 0.1),
        Arguments.of("agg", "'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'sum',"
            + " 'fields.b.aggregate-function' = 'max', 'fields.c.aggregate-function' = 'last_non_null_value'", 0.0),
        Arguments.of("first", "'merge-engine' = 'first-row'", 0.0),
        Arguments.of("dedup_dv", "'deletion-vectors.enabled' = 'true'", 0.15),
        Arguments.of("dedup_dv64_orc", "'deletion-vectors.enabled' = 'true', 'deletion-vectors.bitmap64' = 'true',"
            + " 'file.format' = 'orc'", 0.15),
        Arguments.of("seqfield_dv", "'deletion-vectors.enabled' = 'true', 'sequence.field' = 'ts'", 0.1),
        Arguments.of("partial_dv", "'deletion-vectors.enabled' = 'true', 'merge-engine' = 'partial-update',"
            + " 'partial-update.remove-record-on-delete' = 'true'", 0.1),
        Arguments.of("agg_dv", "'deletion-vectors.enabled' = 'true', 'merge-engine' = 'aggregation',"
            + " 'fields.a.aggregate-function' = 'sum', 'fields.b.aggregate-function' = 'max',"
            + " 'fields.c.aggregate-function' = 'last_non_null_value'", 0.0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("engines")
  void paimonReadsWhatLagoonWrote(String name, String options, double deleteRate) {
    String t = "lake.pki." + name;
    sql("CREATE TABLE " + t + " " + COLUMNS + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '3',"
        + " 'rowkind.field' = 'op', 'num-sorted-run.compaction-trigger' = '3', " + options + ")");
    ChangeStream s = new ChangeStream(name.hashCode(), 14, 40, 15, 0.3, d -> d < deleteRate ? "-D" : "+I");
    Path dir = warehouse.resolve("pki.db").resolve(name);
    for (int i = 0; i < s.rounds.size(); i++) {
      sql(s.insert(t, i));
      if (i % 4 == 3) {
        assertEquals(SparkRows.renderAll(sql("SELECT * FROM " + t)), PaimonOracle.readRows(dir), "after round " + i);
      }
    }
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM " + t)), PaimonOracle.readRows(dir));
  }

  @Test
  void lagoonUpsertsIntoAPaimonTableLandInPaimonsBuckets() {
    Path wh = warehouse.resolve("paimon-made");
    Schema schema = Schema.newBuilder()
        .column("k", DataTypes.STRING().notNull()).column("n", DataTypes.BIGINT().notNull())
        .column("ts", DataTypes.TIMESTAMP(3)).column("v", DataTypes.INT())
        .primaryKey("k", "n").option("bucket", "5").build();
    // The warehouse is separate from lake's: read it through a second Lagoon catalog.
    Path dir = PaimonOracle.createTable(wh, "db", "t", schema);
    List<GenericRow> rows = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      rows.add(GenericRow.of(BinaryString.fromString("key-" + (i % 37)), (long) i,
          org.apache.paimon.data.Timestamp.fromEpochMillis(1_700_000_000_000L + i), i));
    }
    PaimonOracle.writeRows(dir, rows);
    spark.conf().set("spark.sql.catalog.pm", "io.lagoon.spark.LagoonCatalog");
    spark.conf().set("spark.sql.catalog.pm.warehouse", wh.toUri().toString());
    // Update every even n, delete none: if a row went to another bucket than Paimon's, Paimon would
    // see the key twice.
    sql("INSERT INTO pm.db.t SELECT concat('key-', CAST(id % 37 AS STRING)), id,"
        + " timestamp_millis(1700000000000 + id), -CAST(id AS INT) FROM range(0, 200, 2)");
    List<String> lagoon = SparkRows.renderAll(sql("SELECT * FROM pm.db.t"));
    assertEquals(200, lagoon.size());
    assertEquals(lagoon, PaimonOracle.readRows(dir));
    // Paimon writes on top (its writer resumes from Lagoon's sequence numbers), deleting one key.
    PaimonOracle.writeRows(dir, List.of(
        GenericRow.ofKind(RowKind.DELETE, BinaryString.fromString("key-1"), 1L, null, null),
        GenericRow.of(BinaryString.fromString("key-3"), 3L, null, 333)));
    List<String> after = PaimonOracle.readRows(dir);
    assertEquals(199, after.size());
    assertEquals(after, SparkRows.renderAll(sql("SELECT * FROM pm.db.t")));
  }

  /**
   * A deletion-vector table written in turns: Lagoon, then Paimon (its lookup compaction marks rows
   * in Lagoon's files and vectors), then Lagoon again; both read the same rows after each turn.
   */
  @Test
  void deletionVectorTableWrittenInTurnsByLagoonAndPaimon() {
    String t = "lake.pki.turns_dv";
    sql("CREATE TABLE " + t + " (id INT NOT NULL, v BIGINT, s STRING) TBLPROPERTIES ('primary-key' = 'id',"
        + " 'bucket' = '2', 'deletion-vectors.enabled' = 'true')");
    Path dir = warehouse.resolve("pki.db").resolve("turns_dv");
    sql("INSERT INTO " + t + " SELECT CAST(id AS INT), id, concat('l', id) FROM range(0, 300)");
    sql("INSERT INTO " + t + " SELECT CAST(id * 3 AS INT), -id, 'l2' FROM range(0, 50)");
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM " + t)), PaimonOracle.readRows(dir));
    List<GenericRow> paimon = new ArrayList<>();
    for (int i = 0; i < 300; i += 5) paimon.add(GenericRow.of(i, (long) i * 100, BinaryString.fromString("p")));
    paimon.add(GenericRow.ofKind(RowKind.DELETE, 1, null, null));
    paimon.add(GenericRow.of(1000, 1000L, BinaryString.fromString("p-new")));
    PaimonOracle.writeRows(dir, paimon);
    List<String> afterPaimon = PaimonOracle.readRows(dir);
    assertEquals(300, afterPaimon.size());
    assertEquals(afterPaimon, SparkRows.renderAll(sql("SELECT * FROM " + t)));
    sql("INSERT INTO " + t + " SELECT CAST(id * 7 AS INT), id, 'l3' FROM range(0, 60)");
    List<String> lagoon = SparkRows.renderAll(sql("SELECT * FROM " + t));
    assertEquals(lagoon, PaimonOracle.readRows(dir));
    assertEquals(List.of("1"), rows("SELECT count(*) FROM " + t + " WHERE id = 0 AND s = 'l3'"));
  }
}
