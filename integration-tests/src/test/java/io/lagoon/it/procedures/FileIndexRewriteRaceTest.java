package io.lagoon.it.procedures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.ddl.WarehouseListing;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code rewrite_file_index} running again and again, after each change of the index options,
 * while another thread inserts (and, on the append table with deletion vectors, deletes): every
 * statement that returned is in the table, no deleted row comes back, a rewrite that lost to a
 * concurrent change fails as a conflict, every file ends with the indexes the options ask for,
 * and Paimon reads what Lagoon reads.
 */
@RequiresPaimon131
class FileIndexRewriteRaceTest extends LagoonSparkTest {
  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.ri");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"append_dv", "pk"})
  void rewritesRacingWritesLoseNothing(String kind) throws Exception {
    String t = "lake.ri." + kind;
    sql("CREATE TABLE " + t + " (id INT NOT NULL, v STRING) " + (kind.equals("append_dv")
        ? "TBLPROPERTIES ('deletion-vectors.enabled' = 'true', 'write-only' = 'true', "
        : "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', 'write-only' = 'true', ")
        + "'file-index.in-manifest-threshold' = '1 b')");
    sql("INSERT INTO " + t + " VALUES (0, 'zero')");
    RacingWrites writes = new RacingWrites(t, q -> sql(q));
    String[] options = {"v", "id,v", "id"};
    int rewrites = 0;
    int conflicts = 0;
    int round = 0;
    while (writes.writing()) {
      String columns = options[round++ % options.length];
      RacingWrites.retryingConflicts(() -> sql("ALTER TABLE " + t + " SET TBLPROPERTIES ('file-index.bloom-filter.columns' = '"
          + columns + "')"));
      try {
        sql("CALL lake.sys.rewrite_file_index(table => 'ri." + kind + "')").collect();
        rewrites++;
      } catch (Exception e) {
        assertTrue(RacingWrites.isConflict(e), WarehouseListing.messages(e));
        conflicts++;
      }
    }
    List<String> expected = writes.expected();
    sql("ALTER TABLE " + t + " SET TBLPROPERTIES ('file-index.bloom-filter.columns' = 'v')");
    sql("CALL lake.sys.rewrite_file_index(table => 'ri." + kind + "')").collect();
    String outcome = rewrites + " rewrites, " + conflicts + " conflicts";
    assertEquals(expected, rows("SELECT * FROM " + t), outcome);
    assertTrue(rewrites >= 1, outcome);

    // Every live file carries an index file of its own now, and a lookup of an absent value answers nothing.
    Path dir = warehouse.resolve("ri.db").resolve(kind);
    FileStoreTable core = FileStoreTable.load(new FileIO(new Configuration()), new org.apache.hadoop.fs.Path(dir.toUri()),
        "ri." + kind);
    for (ManifestEntry e : LiveFiles.read(core.manifests(), core.snapshots().latest().orElseThrow())) {
      // A rebuilt index gets a name of its own (the old one may still be read by a running scan).
      assertEquals(1, e.file.extraFiles.size(), e.file.fileName + " " + outcome);
      String index = e.file.extraFiles.get(0);
      assertTrue(index.startsWith(e.file.fileName) && index.endsWith(".index"), index);
      assertTrue(java.nio.file.Files.exists(dir.resolve("bucket-" + e.bucket).resolve(index)), index);
    }
    assertEquals(List.of("0"), rows("SELECT count(*) FROM " + t + " WHERE v = 'absent'"));
    assertEquals(PaimonOracle.readRows(dir), SparkRows.renderAll(sql("SELECT * FROM " + t)));
  }
}
