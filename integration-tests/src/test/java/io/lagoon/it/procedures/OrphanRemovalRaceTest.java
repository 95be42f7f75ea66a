package io.lagoon.it.procedures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Orphan removal with the latest possible cut-off (now) running again and again while another
 * thread writes: no statement that returned loses a row (its files were in flight, not orphans),
 * the old leftovers planted beforehand are removed, and Paimon reads what Lagoon reads.
 */
@RequiresPaimon131
class OrphanRemovalRaceTest extends LagoonSparkTest {
  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.orphans");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"append", "pk_dv"})
  void aWriterNeverLosesFilesToOrphanRemoval(String kind) throws Exception {
    String t = "lake.orphans." + kind;
    sql("CREATE TABLE " + t + " (id INT NOT NULL, v STRING) " + (kind.equals("append") ? ""
        : "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', 'deletion-vectors.enabled' = 'true')"));
    sql("INSERT INTO " + t + " VALUES (0, 'first')");
    Path dir = warehouse.resolve("orphans.db").resolve(kind);
    // Leftovers of a killed writer, a day old: a data file and a manifest.
    Path strayData = Files.write(Files.createDirectories(dir.resolve("bucket-0")).resolve("data-stray-0.parquet"), new byte[] {1});
    Path strayManifest = Files.write(dir.resolve("manifest").resolve("manifest-stray-0"), new byte[] {1});
    FileTime dayOld = FileTime.fromMillis(System.currentTimeMillis() - 25L * 3600 * 1000);
    Files.setLastModifiedTime(strayData, dayOld);
    Files.setLastModifiedTime(strayManifest, dayOld);

    AtomicBoolean writing = new AtomicBoolean(true);
    List<String> expected = new ArrayList<>(List.of("0,first"));
    ExecutorService pool = Executors.newSingleThreadExecutor();
    Future<?> writer = pool.submit(() -> {
      try {
        for (int i = 1; i <= 12; i++) {
          sql("INSERT INTO " + t + " VALUES (" + i + ", 'v" + i + "'), (" + (100 + i) + ", 'w" + i + "')");
          if (i % 4 == 0) sql("UPDATE " + t + " SET v = 'u" + i + "' WHERE id = " + i);
          synchronized (expected) {
            expected.add(i + "," + (i % 4 == 0 ? "u" : "v") + i);
            expected.add((100 + i) + ",w" + i);
          }
          // Each statement that returned is visible to the next read.
          List<String> now = rows("SELECT * FROM " + t);
          synchronized (expected) {
            assertTrue(now.containsAll(expected), "after statement " + i + ": " + now);
          }
        }
      } finally {
        writing.set(false);
      }
      return null;
    });
    int runs = 0;
    while (writing.get()) {
      sql("CALL lake.sys.remove_orphan_files(table => 'orphans." + kind + "', older_than => '2999-01-01 00:00:00')").collect();
      runs++;
    }
    writer.get();
    pool.shutdown();
    assertTrue(runs >= 2, "orphan removal ran while the writer wrote: " + runs);
    assertFalse(Files.exists(strayData) || Files.exists(strayManifest), "the old leftovers are gone");
    expected.sort(String::compareTo);
    assertEquals(expected, rows("SELECT * FROM " + t));
    assertEquals(PaimonOracle.readRows(dir), SparkRows.renderAll(sql("SELECT * FROM " + t)));
    assertEquals(List.of(), rows("CALL lake.sys.remove_orphan_files(table => 'orphans." + kind
        + "', older_than => '2999-01-01 00:00:00', dry_run => true)"), "nothing is left over");
  }
}
