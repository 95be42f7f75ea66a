package io.lagoon.it.dynamicbucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.ddl.WarehouseListing;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * Two sessions inserting overlapping new keys into one dynamic-bucket table at once, with small
 * buckets so that both keep making new ones (and often give a shared new key different buckets):
 * each statement commits or fails with a dynamic-bucket conflict that changed nothing,
 * and afterwards every key of a committed statement is there once, in the bucket the HASH index
 * gives it.
 */
class DynamicBucketRaceTest extends LagoonSparkTest {
  private static final int STATEMENTS = 8;

  @Test
  void racingInsertsOfNewKeysNeverGiveAKeyTwoBuckets() throws Exception {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.dynrace");
    sql("CREATE TABLE lake.dynrace.t (id INT, w INT) TBLPROPERTIES ('primary-key' = 'id', "
        + "'dynamic-bucket.target-row-num' = '400')");
    Set<Integer> committedKeys = Collections.synchronizedSet(new TreeSet<>());
    List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
    int[] conflicts = new int[2];
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      SparkSession session = spark.newSession();
      int writer = w;
      threads.add(new Thread(() -> {
        try {
          start.await();
          for (int i = 0; i < STATEMENTS; i++) {
            // Both writers' statement i covers keys [2000 i, 2000 i + 3000): a third of them shared.
            int from = 2000 * i + (writer == 0 ? 0 : 1000);
            try {
              session.sql("INSERT INTO lake.dynrace.t SELECT CAST(id AS INT), " + writer + " FROM range(" + from + ", "
                  + (from + 2000) + ")");
              for (int k = from; k < from + 2000; k++) committedKeys.add(k);
            } catch (Throwable e) {
              // An INSERT can only lose one way: a concurrent commit gave one of its new keys another bucket.
              if (!WarehouseListing.messages(e).contains("Dynamic-bucket conflict")) throw e;
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
    for (Thread t : threads) {
      t.join(TimeUnit.MINUTES.toMillis(4));
      assertTrue(!t.isAlive(), t.getName() + " finished");
    }
    if (!errors.isEmpty()) throw new AssertionError(WarehouseListing.messages(errors.get(0)), errors.get(0));
    System.out.println("DynamicBucketRaceTest: conflicts " + conflicts[0] + " and " + conflicts[1]);
    List<String> expected = new ArrayList<>();
    for (int k : committedKeys) expected.add(Integer.toString(k));
    expected.sort(String::compareTo);
    assertEquals(expected, rows("SELECT CAST(id AS STRING) FROM lake.dynrace.t"),
        "the keys of the committed statements, each once");
    BucketIndexCheck.assertKeysInTheirIndexedBucket(spark, "lake.dynrace.t",
        warehouse.resolve("dynrace.db").resolve("t"), List.of("id"), List.of(PaimonType.of(TypeRoot.INT)));
  }
}
