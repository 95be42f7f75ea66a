package io.lagoon.it.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.mergetree.KeyValueFileReader;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.compact.TableCompaction;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.ddl.WarehouseListing;
import io.lagoon.it.pk.PkTableFiles;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Row-level statements racing each other and a compaction, each writer in its own session. Each
 * statement either commits or fails with a clear conflict error that changed nothing: an
 * increment is never lost (the counter ends at the start plus the committed increments), a row is
 * never duplicated, and a deleted row never comes back.
 */
class RowLevelRaceTest extends LagoonSparkTest {
  private static final int STATEMENTS = 8;

  @BeforeAll
  static void ns() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.race");
  }

  private static String properties(String kind) {
    switch (kind) {
      case "pk": return "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')";
      case "pk-dv": return "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', 'deletion-vectors.enabled' = 'true')";
      case "append-dv": return "TBLPROPERTIES ('deletion-vectors.enabled' = 'true')";
      case "pk-dynamic": return "TBLPROPERTIES ('primary-key' = 'id', 'dynamic-bucket.target-row-num' = '50')";
      default: return "";
    }
  }

  /** Whether a failed statement failed the way a lost race must: naming a conflict. */
  private static boolean isConflict(Throwable e) {
    return WarehouseListing.messages(e).toLowerCase().contains("conflict");
  }

  /**
   * A deletion-vector write whose compactions kept losing races fails saying its rows are
   * committed and become visible with the next compaction (the next statement's, here).
   */
  private static boolean committedAnyway(Throwable e) {
    return WarehouseListing.messages(e).contains("is committed, but its rows");
  }

  /**
   * Cleanup after a lost race deletes only what no snapshot references: every data file of every
   * snapshot (time travel, and the base of a writer still running) is still on disk.
   */
  private static void assertEverySnapshotsFilesExist(String name) {
    java.nio.file.Path dir = warehouse.resolve("race.db").resolve(name);
    Set<String> missing = new TreeSet<>(PkTableFiles.referencedByAnySnapshot(PkTableFiles.load(spark, dir, name)));
    missing.removeAll(PkTableFiles.onDisk(dir));
    assertEquals(Set.of(), missing, name + ": data files some snapshot references are gone");
  }

  @ParameterizedTest
  @ValueSource(strings = {"pk", "pk-dv", "pk-dynamic", "append-dv", "append"})
  void racingIncrementsOfOneRowAreNeverLost(String kind) throws Exception {
    String t = "lake.race." + kind.replace('-', '_');
    sql("CREATE TABLE " + t + " (id INT" + (kind.startsWith("pk") ? " NOT NULL" : "") + ", n INT, tag STRING) "
        + properties(kind));
    sql("INSERT INTO " + t + " VALUES (1, 0, 'shared'), (2, 0, 'a'), (3, 0, 'b')");
    AtomicInteger committed = new AtomicInteger();
    AtomicInteger conflicts = new AtomicInteger();
    AtomicInteger[] ownCommitted = {new AtomicInteger(), new AtomicInteger()};
    List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      SparkSession session = spark.newSession();
      int own = 2 + w;
      threads.add(new Thread(() -> {
        try {
          start.await();
          for (int i = 0; i < STATEMENTS; i++) {
            try {
              session.sql("UPDATE " + t + " SET n = n + 1 WHERE id = 1");
              committed.incrementAndGet();
            } catch (Throwable e) {
              if (!isConflict(e)) throw e;
              if (committedAnyway(e)) committed.incrementAndGet();
              else conflicts.incrementAndGet();
            }
            // Rows only this writer touches conflict only where a whole file is rewritten (copy-on-write).
            try {
              session.sql("UPDATE " + t + " SET n = n + 1 WHERE id = " + own);
              ownCommitted[own - 2].incrementAndGet();
            } catch (Throwable e) {
              if (committedAnyway(e)) ownCommitted[own - 2].incrementAndGet();
              else if (!isConflict(e) || !kind.equals("append")) throw e;
            }
          }
        } catch (Throwable e) {
          errors.add(e);
        }
      }, "writer-" + w));
    }
    threads.forEach(Thread::start);
    start.countDown();
    for (Thread th : threads) {
      th.join(TimeUnit.MINUTES.toMillis(4));
      assertTrue(!th.isAlive(), th.getName() + " finished");
    }
    if (!errors.isEmpty()) throw new AssertionError(kind + ": " + WarehouseListing.messages(errors.get(0)), errors.get(0));
    System.out.println("RowLevelRaceTest " + kind + ": shared increments committed " + committed + ", conflicts " + conflicts);
    if (kind.equals("pk-dv")) {
      // Rows a last statement committed on level 0 without winning a compaction become visible now.
      FileStoreTable table = FileStoreTable.load(new FileIO(spark.sparkContext().hadoopConfiguration()),
          new org.apache.hadoop.fs.Path(warehouse.resolve("race.db").resolve("pk_dv").toUri().toString()), "race.pk_dv");
      TableCompaction.full(table, KeyValueFileReader.buildForCompaction(spark, table), null);
    }
    if (!kind.equals("append")) {
      assertEquals(STATEMENTS, ownCommitted[0].get());
      assertEquals(STATEMENTS, ownCommitted[1].get());
    }
    assertEquals(List.of("1," + committed.get() + ",shared", "2," + ownCommitted[0] + ",a", "3," + ownCommitted[1] + ",b"),
        rows("SELECT * FROM " + t), kind + ": every committed increment counts once, none is lost or doubled");
    assertEquals(2 * STATEMENTS, committed.get() + conflicts.get());
    assertEverySnapshotsFilesExist(kind.replace('-', '_'));
  }

  @ParameterizedTest
  @ValueSource(strings = {"pk", "pk-dv", "pk-dynamic"})
  void statementsRacingFullCompactionsLoseNothingAndResurrectNothing(String kind) throws Exception {
    String t = "lake.race.compacted_" + kind.replace('-', '_');
    sql("CREATE TABLE " + t + " (id INT NOT NULL, n INT, tag STRING) " + properties(kind));
    sql("INSERT INTO " + t + " SELECT CAST(id AS INT), 0, 'x' FROM range(0, 200)");
    java.nio.file.Path dir = warehouse.resolve("race.db").resolve("compacted_" + kind.replace('-', '_'));
    AtomicBoolean done = new AtomicBoolean();
    List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
    int[] compactions = new int[2];
    Thread compactor = new Thread(() -> {
      try {
        KeyValueSource source = null;
        while (!done.get()) {
          FileStoreTable table = FileStoreTable.load(new FileIO(spark.sparkContext().hadoopConfiguration()),
              new org.apache.hadoop.fs.Path(dir.toUri().toString()), t);
          if (source == null) source = KeyValueFileReader.buildForCompaction(spark, table);
          try {
            if (TableCompaction.full(table, source, null).isPresent()) compactions[0]++;
          } catch (CommitConflictException e) {
            compactions[1]++;
          }
          Thread.sleep(100);
        }
      } catch (Throwable e) {
        errors.add(e);
      }
    }, "compactor");
    compactor.start();
    SparkSession session = spark.newSession();
    int committed = 0;
    try {
      for (int i = 0; i < STATEMENTS; i++) {
        // Each statement: an increment of a band of rows, and the deletion of one more row.
        session.sql("UPDATE " + t + " SET n = n + 1 WHERE id >= 100");
        session.sql("DELETE FROM " + t + " WHERE id = " + i);
        committed++;
      }
    } finally {
      done.set(true);
      compactor.join(TimeUnit.MINUTES.toMillis(2));
    }
    if (!errors.isEmpty()) throw new AssertionError(WarehouseListing.messages(errors.get(0)), errors.get(0));
    System.out.println("RowLevelRaceTest " + kind + " with compactions: committed " + compactions[0] + ", lost "
        + compactions[1]);
    assertEquals(list((100 - STATEMENTS) + ",0,0", "100," + committed + "," + committed),
        rows("SELECT count(*), min(n), max(n) FROM " + t + " GROUP BY id >= 100"),
        kind + ": every increment counts, every deleted row stays deleted");
    assertEquals(List.of(), rows("SELECT id FROM " + t + " WHERE id < " + STATEMENTS));
    assertEverySnapshotsFilesExist("compacted_" + kind.replace('-', '_'));
  }
}
