package io.lagoon.it.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.catalog.FileSystemCatalog;
import io.lagoon.core.catalog.Identifier;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.write.AppendTableWriter;
import io.lagoon.it.LagoonSparkTest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.Test;

/** Writers racing for the same snapshot id all land: no row lost, none twice. */
class ConcurrentCommitTest extends LagoonSparkTest {

  @Test
  void concurrentSqlInsertsAllLand() throws Exception {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.cc");
    sql("CREATE TABLE lake.cc.t (writer INT, n BIGINT)");
    int writers = 4;
    int commitsEach = 5;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int id = w;
      futures.add(pool.submit(() -> {
        start.await();
        for (int c = 0; c < commitsEach; c++) {
          spark.sql("INSERT INTO lake.cc.t SELECT " + id + ", id FROM range(" + (c * 100) + ", " + (c * 100 + 100) + ")");
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> f : futures) f.get();
    pool.shutdown();
    assertEquals(list("0,500,500", "1,500,500", "2,500,500", "3,500,500"),
        rows("SELECT writer, count(*), count(DISTINCT n) FROM lake.cc.t GROUP BY writer"));
    assertTrue(java.nio.file.Files.exists(warehouse.resolve("cc.db/t/snapshot/snapshot-" + (writers * commitsEach))));
  }

  @Test
  void commitsRacingOnTheSameSnapshotIdRetry() throws Exception {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.cc");
    sql("CREATE TABLE lake.cc.race (n INT)");
    FileSystemCatalog catalog = new FileSystemCatalog(new FileIO(new Configuration()), new Path(warehouse.toUri()));
    FileStoreTable table = catalog.loadTable(new Identifier("cc", "race"));
    int threads = 8;
    // Every thread prepares its files first, then all commit at the same instant.
    List<List<ManifestEntry>> prepared = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      AppendTableWriter w = new AppendTableWriter(table);
      w.write(new GenericInternalRow(new Object[] {t}));
      prepared.add(w.finish());
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    for (List<ManifestEntry> files : prepared) {
      futures.add(pool.submit(() -> {
        go.await();
        table.newAppend().add(files).commit();
        return null;
      }));
    }
    go.countDown();
    for (Future<?> f : futures) f.get();
    pool.shutdown();
    assertEquals(list("0", "1", "2", "3", "4", "5", "6", "7"), rows("SELECT n FROM lake.cc.race"));
    assertEquals(threads, table.snapshots().latestId().orElseThrow().intValue());
  }
}
