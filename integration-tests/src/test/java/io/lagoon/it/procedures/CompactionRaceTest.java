package io.lagoon.it.procedures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.ddl.WarehouseListing;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compactions (plain and sorting) running again and again while another thread inserts and
 * deletes: every statement that returned is in the table, no deleted row comes back, a compaction
 * that lost to a concurrent change fails as a conflict (never half-applied), and Paimon reads
 * what Lagoon reads.
 */
@RequiresPaimon131
class CompactionRaceTest extends LagoonSparkTest {
  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.cr");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"append_dv", "pk", "append_zorder"})
  void compactionsRacingWritesLoseNothing(String kind) throws Exception {
    String t = "lake.cr." + kind;
    sql("CREATE TABLE " + t + " (id INT NOT NULL, v STRING) " + (kind.startsWith("append")
        ? "TBLPROPERTIES ('deletion-vectors.enabled' = 'true', 'write-only' = 'true')"
        : "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', 'write-only' = 'true')"));
    sql("INSERT INTO " + t + " VALUES (0, 'zero')");
    RacingWrites writes = new RacingWrites(t, q -> sql(q));
    int compactions = 0;
    int conflicts = 0;
    String args = "table => 'cr." + kind + "'" + (kind.equals("append_zorder") ? ", order_strategy => 'zorder', order_by => 'id,v'" : "");
    while (writes.writing()) {
      try {
        sql("CALL lake.sys.compact(" + args + ")").collect();
        compactions++;
      } catch (Exception e) {
        assertTrue(RacingWrites.isConflict(e), WarehouseListing.messages(e));
        conflicts++;
      }
    }
    List<String> expected = writes.expected();
    sql("CALL lake.sys.compact(" + args + ")").collect();
    assertEquals(expected, rows("SELECT * FROM " + t), compactions + " compactions, " + conflicts + " conflicts");
    Path dir = warehouse.resolve("cr.db").resolve(kind);
    assertEquals(PaimonOracle.readRows(dir), SparkRows.renderAll(sql("SELECT * FROM " + t)));
    assertTrue(compactions >= 1, "compactions ran: " + compactions);
  }
}
