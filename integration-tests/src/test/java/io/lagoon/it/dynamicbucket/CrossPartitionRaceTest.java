package io.lagoon.it.dynamicbucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.ddl.WarehouseListing;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Concurrent writers of one cross-partition table (a key lives in one partition of the whole
 * table, and each write decides where from where keys lived when it started). A write that placed
 * keys before another commit moved or overwrote them fails as a conflict and changes nothing, in
 * either order of the two statements; so no key is ever live in two partitions.
 */
class CrossPartitionRaceTest extends LagoonSparkTest {
  /**
   * Opened by the test to let a held statement's task go on; it signals {@link #held} first. Only
   * the task reading key {@link #HELD_KEY} waits, so the other statement still finds a free core.
   */
  private static volatile CountDownLatch release;
  private static volatile CountDownLatch held;
  private static final int HELD_KEY = 100;
  private static final String DYNAMIC = "spark.sql.sources.partitionOverwriteMode";

  @BeforeAll
  static void setUp() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.cross");
    registerHold(spark);
  }

  /** A session of its own (as another job's), with {@code hold}. */
  private static SparkSession session() {
    SparkSession s = spark.newSession();
    registerHold(s);
    return s;
  }

  /** Identity on the value, but key 100 of the held statement waits until the test lets it go on. */
  private static void registerHold(SparkSession s) {
    s.udf().register("hold", (UDF1<Integer, Integer>) x -> {
      CountDownLatch r = release;
      if (r != null && x != null && x == HELD_KEY) {
        held.countDown();
        if (!r.await(2, TimeUnit.MINUTES)) throw new IllegalStateException("never released");
      }
      return x;
    }, DataTypes.IntegerType);
  }

  private static String create(String name) {
    String t = "lake.cross." + name;
    sql("CREATE TABLE " + t + " (id INT, w STRING, d STRING) PARTITIONED BY (d) "
        + "TBLPROPERTIES ('primary-key' = 'id', 'dynamic-bucket.target-row-num' = '100')");
    // Keys 0..299 in partition a.
    sql("INSERT INTO " + t + " SELECT CAST(id AS INT), 'start', 'a' FROM range(0, 300)");
    return t;
  }

  /** A statement writing keys [from, to) tagged {@code w} into partition {@code d}, its source read through {@code hold}. */
  private static String statement(String kind, String t, int from, int to, String w, String d) {
    String rows = "SELECT hold(CAST(id AS INT)) AS id, '" + w + "' AS w, '" + d + "' AS d FROM range(" + from + ", " + to + ")";
    switch (kind) {
      case "insert": return "INSERT INTO " + t + " " + rows;
      case "overwrite": case "overwrite_dynamic": return "INSERT OVERWRITE " + t + " " + rows;
      case "overwrite_static": return "INSERT OVERWRITE " + t + " PARTITION (d = '" + d + "') SELECT hold(CAST(id AS INT)), '"
          + w + "' FROM range(" + from + ", " + to + ")";
      case "merge": return "MERGE INTO " + t + " t USING (" + rows + ") s ON t.id = s.id "
          + "WHEN MATCHED THEN UPDATE SET t.w = s.w, t.d = s.d WHEN NOT MATCHED THEN INSERT *";
      case "update": return "UPDATE " + t + " SET w = '" + w + "', d = '" + d + "' WHERE hold(id) >= " + from
          + " AND id < " + to;
      default: throw new IllegalArgumentException(kind);
    }
  }

  /**
   * Statement {@code first} starts and holds inside its tasks (its write planned on the table as it
   * was), {@code second} moves some of the same keys to partition c and commits, then {@code first}
   * goes on to move keys 100..199 to partition b. A held INSERT, MERGE or UPDATE placed keys where
   * they no longer live: it fails as a conflict and the table is what {@code second} left; so does
   * an overwrite of some partitions (static or dynamic mode), which moves keys out of the others. A
   * held whole-table overwrite replaces whatever is live when it commits, so it wins whole.
   */
  @ParameterizedTest(name = "{0} held while {1} commits")
  @CsvSource({"insert, insert", "insert, merge", "merge, insert", "update, insert", "insert, update",
      "merge, merge", "insert, overwrite", "overwrite, insert", "overwrite_static, insert", "insert, overwrite_static",
      "overwrite_dynamic, merge", "merge, overwrite_dynamic"})
  void aWriteThatPlacedKeysBeforeAnotherMovedThemFailsAndChangesNothing(String first, String second) throws Exception {
    String name = "race_" + first + "_" + second;
    String t = create(name);
    release = new CountDownLatch(1);
    held = new CountDownLatch(1);
    AtomicReference<Throwable> failed = new AtomicReference<>();
    SparkSession other = session();
    // Dynamic partition overwrite is a session setting.
    if (first.equals("overwrite_dynamic")) other.conf().set(DYNAMIC, "dynamic");
    if (second.equals("overwrite_dynamic")) spark.conf().set(DYNAMIC, "dynamic");
    Thread writer = new Thread(() -> {
      try {
        other.sql(statement(first, t, 100, 200, "first", "b"));
      } catch (Throwable e) {
        failed.set(e);
      }
    }, "held-" + first);
    writer.start();
    try {
      while (!held.await(100, TimeUnit.MILLISECONDS)) {
        if (!writer.isAlive()) throw new AssertionError("the held statement ended first", failed.get());
      }
      CountDownLatch stillHeld = release;
      release = null; // the second statement runs through
      sql(statement(second, t, 150, 250, "second", "c"));
      stillHeld.countDown();
      writer.join(TimeUnit.MINUTES.toMillis(2));
      assertTrue(!writer.isAlive(), "the held statement finished");
    } finally {
      release = null;
      spark.conf().unset(DYNAMIC);
      if (held.getCount() == 0) writer.join(TimeUnit.MINUTES.toMillis(2));
    }
    Map<String, Long> expected = new TreeMap<>();
    if (first.equals("overwrite")) {
      assertEquals(null, failed.get(), "the overwrite commits");
      expected.put("first,b", 100L);
    } else {
      assertTrue(failed.get() != null, first + " fails");
      String message = WarehouseListing.messages(failed.get());
      assertTrue(message.contains("Concurrent change of cross." + name) && message.contains("run the statement again"),
          message);
      if (second.equals("overwrite")) {
        expected.put("second,c", 100L);
      } else {
        expected.put("second,c", 100L);
        expected.put("start,a", 200L);
      }
    }
    Map<String, Long> actual = new TreeMap<>();
    for (org.apache.spark.sql.Row r : sql("SELECT w, d, count(*) FROM " + t + " GROUP BY w, d").collectAsList()) {
      actual.put(r.getString(0) + "," + r.getString(1), r.getLong(2));
    }
    assertEquals(expected, actual, "what the committed statements left, each key once");
    CrossPartitionWriteTest.sameInPaimon(name);
    CrossPartitionWriteTest.assertLiveRecordsInOneBucket(name);
  }

  /**
   * Two sessions keep moving overlapping keys between partitions (INSERT and MERGE), one of them
   * once overwrites the whole table and the other one partition: every statement commits or fails as a conflict,
   * and afterwards every key is live once, in one bucket, with the values of a committed statement
   * that wrote it there; Paimon 1.3.1 reads the same.
   */
  @Test
  void racingWritersNeverLeaveAKeyInTwoPartitions() throws Exception {
    String t = create("race_free");
    release = null;
    int statements = 8;
    List<String> committed = Collections.synchronizedList(new ArrayList<>());
    List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
    int[] conflicts = new int[2];
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      SparkSession session = session();
      int writer = w;
      threads.add(new Thread(() -> {
        try {
          start.await();
          for (int i = 0; i < statements; i++) {
            // Writer 0 writes keys [0, 200), writer 1 [100, 300): each into its own next partition.
            String tag = "w" + writer + "s" + i;
            String kind = writer == 0 && i == 5 ? "overwrite" : writer == 1 && i == 3 ? "overwrite_static"
                : i % 2 == 0 ? "insert" : "merge";
            String d = "p" + ((i + writer) % 3);
            try {
              session.sql(statement(kind, t, 100 * writer, 100 * writer + 200, tag, d));
              committed.add(tag + "," + d);
            } catch (Throwable e) {
              if (!WarehouseListing.messages(e).contains("Concurrent change of ")) throw e;
              conflicts[writer]++;
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
    if (!errors.isEmpty()) throw new AssertionError(WarehouseListing.messages(errors.get(0)), errors.get(0));
    System.out.println("CrossPartitionRaceTest: conflicts " + conflicts[0] + " and " + conflicts[1]);
    for (org.apache.spark.sql.Row r : sql("SELECT id, w, d FROM " + t).collectAsList()) {
      String written = r.getString(1) + "," + r.getString(2);
      assertTrue(r.getString(1).equals("start") && r.getString(2).equals("a") || committed.contains(written),
          "key " + r.getInt(0) + " holds " + written + ", which no committed statement wrote; committed " + committed);
    }
    CrossPartitionWriteTest.sameInPaimon("race_free");
    CrossPartitionWriteTest.assertLiveRecordsInOneBucket("race_free");
  }
}
