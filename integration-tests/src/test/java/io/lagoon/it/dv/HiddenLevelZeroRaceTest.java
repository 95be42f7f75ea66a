package io.lagoon.it.dv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.mergetree.KeyValueFileReader;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.compact.TableCompaction;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two writers, each in its own Spark session, upsert their own half of the keys of one table whose
 * readers skip level 0 (deletion vectors, or first-row): a write is visible only once compaction
 * moved it up, and the two writers' compactions race for the same buckets. After every statement
 * returns, its writer reads its own keys back and must see that statement's values: a compaction
 * that lost its race must be redone before the statement returns, never left to a later write.
 * Both writers also write a few shared keys in every statement, which must never show twice (a
 * key live in two files of a level, or unmarked in a vector). A third thread keeps running full
 * compactions (the core call of the coming {@code compact} procedure) meanwhile; losing a race is
 * all it may do wrong, and only with a clear conflict.
 */
class HiddenLevelZeroRaceTest extends LagoonSparkTest {
  private static final int KEYS = 2_000;
  private static final int STATEMENTS = 8;
  private static final long SHARED = 10_000_000L;
  private static final int SHARED_KEYS = 50;

  @ParameterizedTest
  @ValueSource(strings = {"deduplicate", "partial-update", "aggregation", "first-row"})
  void everyReturnedWriteIsVisibleToItsWriter(String engine) throws Exception {
    String t = "lake.l0race." + engine.replace('-', '_');
    sql("CREATE NAMESPACE IF NOT EXISTS lake.l0race");
    String options = "'primary-key' = 'id', 'bucket' = '4', 'merge-engine' = '" + engine + "'"
        + (engine.equals("first-row") ? "" : ", 'deletion-vectors.enabled' = 'true'")
        + (engine.equals("aggregation")
            ? ", 'fields.batch.aggregate-function' = 'max', 'fields.cnt.aggregate-function' = 'sum'" : "");
    sql("CREATE TABLE " + t + " (id INT NOT NULL, batch INT, cnt BIGINT, note STRING) TBLPROPERTIES (" + options + ")");

    List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> writers = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      int writer = w;
      SparkSession session = spark.newSession();
      writers.add(new Thread(() -> {
        try {
          start.await();
          for (int i = 1; i <= STATEMENTS; i++) {
            session.sql(insert(t, engine, writer, i));
            check(session, t, engine, writer, i);
          }
        } catch (Throwable e) {
          errors.add(e);
        }
      }, "writer-" + w));
    }
    Path dir = warehouse.resolve("l0race.db").resolve(engine.replace('-', '_'));
    int[] fulls = new int[2];
    Thread compactor = new Thread(() -> {
      try {
        start.await();
        KeyValueSource source = null;
        while (writers.stream().anyMatch(Thread::isAlive)) {
          FileStoreTable table = FileStoreTable.load(new FileIO(spark.sparkContext().hadoopConfiguration()),
              new org.apache.hadoop.fs.Path(dir.toUri().toString()), "l0race." + engine);
          if (source == null) source = KeyValueFileReader.buildForCompaction(spark, table);
          try {
            if (TableCompaction.full(table, source, null).isPresent()) fulls[0]++;
          } catch (CommitConflictException e) {
            assertTrue(e.getMessage().contains("run it again"), e.getMessage());
            fulls[1]++;
          }
          Thread.sleep(200);
        }
      } catch (Throwable e) {
        errors.add(e);
      }
    }, "full-compaction");
    writers.forEach(Thread::start);
    compactor.start();
    start.countDown();
    for (Thread th : List.of(writers.get(0), writers.get(1), compactor)) {
      th.join(TimeUnit.MINUTES.toMillis(4));
      assertTrue(!th.isAlive(), th.getName() + " finished");
    }
    if (!errors.isEmpty()) {
      AssertionError e = new AssertionError(engine + ": " + errors.get(0).getMessage(), errors.get(0));
      errors.stream().skip(1).forEach(e::addSuppressed);
      throw e;
    }
    System.out.println("HiddenLevelZeroRaceTest " + engine + ": full compactions committed " + fulls[0]
        + ", given up after conflicts " + fulls[1]);
    // Read from a third session too, after both are done: everything is there.
    for (int w = 0; w < 2; w++) check(spark, t, engine, w, STATEMENTS);
  }

  /** Writer w's keys: its half of the key space; first-row gets new keys in every statement. */
  private static long low(String engine, int writer, int statement) {
    return engine.equals("first-row") ? writer * 1_000_000L + (long) statement * KEYS : (long) writer * KEYS;
  }

  private static String insert(String t, String engine, int writer, int i) {
    long lo = low(engine, writer, i);
    long shared = SHARED + (engine.equals("first-row") ? (long) i * SHARED_KEYS : 0);
    return "INSERT INTO " + t + " SELECT CAST(id AS INT), " + i + ", 1, "
        + (i % 2 == 0 ? "'n" + i + "'" : "CAST(NULL AS STRING)") + " FROM (SELECT id FROM range(" + lo + ", "
        + (lo + KEYS) + ") UNION ALL SELECT id FROM range(" + shared + ", " + (shared + SHARED_KEYS) + "))";
  }

  /** After statement i of writer w returned: its keys show exactly what statements 1..i made of them. */
  private static void check(SparkSession session, String t, String engine, int writer, int i) {
    long shared = SHARED + (engine.equals("first-row") ? (long) i * SHARED_KEYS : 0);
    assertEquals("[[" + SHARED_KEYS + "," + SHARED_KEYS + "]]", session.sql("SELECT count(*), count(DISTINCT id) FROM "
        + t + " WHERE id >= " + shared + " AND id < " + (shared + SHARED_KEYS)).collectAsList().toString(),
        engine + " writer " + writer + " after statement " + i + ": every shared key once");
    if (engine.equals("first-row")) {
      for (int s = 1; s <= i; s++) {
        long lo = low(engine, writer, s);
        List<Row> got = session.sql("SELECT batch, count(*) FROM " + t + " WHERE id >= " + lo + " AND id < "
            + (lo + KEYS) + " GROUP BY batch").collectAsList();
        assertEquals("[[" + s + "," + KEYS + "]]", got.toString(),
            engine + " writer " + writer + " after statement " + i + ": keys of statement " + s);
      }
      return;
    }
    long lo = low(engine, writer, i);
    List<Row> got = session.sql("SELECT batch, count(*), sum(cnt), max(note) FROM " + t + " WHERE id >= " + lo
        + " AND id < " + (lo + KEYS) + " GROUP BY batch").collectAsList();
    long cnt = engine.equals("aggregation") ? i : 1;
    // partial-update keeps the last non-null note; deduplicate and aggregation's default take the last.
    String note = engine.equals("deduplicate") || i % 2 == 0 ? (i % 2 == 0 ? "n" + i : "null")
        : (i == 1 ? "null" : "n" + (i - 1));
    assertEquals("[[" + i + "," + KEYS + "," + (cnt * KEYS) + "," + note + "]]", got.toString(),
        engine + " writer " + writer + ": after statement " + i + " returned, its keys [" + lo + ", " + (lo + KEYS)
            + ") should show batch " + i);
  }
}
