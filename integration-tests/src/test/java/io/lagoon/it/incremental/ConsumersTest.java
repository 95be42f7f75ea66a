package io.lagoon.it.incremental;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.paimon.consumer.Consumer;
import org.apache.paimon.consumer.ConsumerManager;
import org.apache.paimon.fs.local.LocalFileIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Consumers: {@code reset_consumer} and {@code clear_consumers} write and remove
 * {@code consumer/consumer-<id>} as Paimon 1.3.1 reads them, consumers Paimon wrote are honoured,
 * snapshot expiry never removes a snapshot a consumer still has to read, and a consumer not
 * updated for {@code consumer.expiration-time} is dropped by the next expiry.
 */
@RequiresPaimon131
class ConsumersTest extends LagoonSparkTest {

  @BeforeAll
  static void withProcedures() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE lake.cons");
  }

  private static Path dir(String t) {
    return warehouse.resolve("cons.db").resolve(t);
  }

  private static ConsumerManager paimon(String t) {
    return new ConsumerManager(LocalFileIO.create(), new org.apache.paimon.fs.Path(dir(t).toUri()));
  }

  private static void commits(String t, int n) {
    for (int i = 0; i < n; i++) sql("INSERT INTO lake.cons." + t + " VALUES (" + i + ")");
  }

  private static long earliest(String t) {
    return sql("SELECT min(snapshot_id) FROM lake.cons.`" + t + "$snapshots`").first().getLong(0);
  }

  @Test
  void expiryKeepsWhatConsumersStillRead() throws Exception {
    sql("CREATE TABLE lake.cons.t (id INT)");
    commits("t", 10);
    sql("CALL lake.sys.reset_consumer(table => 'cons.t', consumer_id => 'job', next_snapshot_id => 4)");
    assertEquals(Optional.of(4L), paimon("t").consumer("job").map(Consumer::nextSnapshot), "Paimon reads it");
    assertEquals(List.of("job,4"), rows("SELECT * FROM lake.cons.`t$consumers`"));
    sql("CALL lake.sys.expire_snapshots(table => 'cons.t', retain_min => 1, older_than => now())");
    assertEquals(4L, earliest("t"), "snapshot 4 and later stay for the consumer");
    // A consumer Paimon wrote counts the same.
    paimon("t").resetConsumer("other", new Consumer(6));
    sql("CALL lake.sys.reset_consumer(table => 'cons.t', consumer_id => 'job')");
    assertEquals(List.of("other,6"), rows("SELECT * FROM lake.cons.`t$consumers`"), "reset without a snapshot removes");
    sql("CALL lake.sys.expire_snapshots(table => 'cons.t', retain_min => 1, older_than => now())");
    assertEquals(6L, earliest("t"));
    assertEquals(rows("SELECT count(*) FROM lake.cons.t"), List.of("10"), "no row lost");
    // Bad arguments: a clear error, consumers unchanged.
    Exception past = assertThrows(Exception.class,
        () -> sql("CALL lake.sys.reset_consumer(table => 'cons.t', consumer_id => 'x', next_snapshot_id => 2)"));
    assertTrue(past.getMessage().contains("next_snapshot_id"), past.getMessage());
    Exception ahead = assertThrows(Exception.class,
        () -> sql("CALL lake.sys.reset_consumer(table => 'cons.t', consumer_id => 'x', next_snapshot_id => 99)"));
    assertTrue(ahead.getMessage().contains("99"), ahead.getMessage());
    Exception name = assertThrows(Exception.class,
        () -> sql("CALL lake.sys.reset_consumer(table => 'cons.t', consumer_id => 'a/b', next_snapshot_id => 7)"));
    assertTrue(name.getMessage().contains("consumer_id"), name.getMessage());
    assertEquals(List.of("other,6"), rows("SELECT * FROM lake.cons.`t$consumers`"));
  }

  @Test
  void clearConsumersByPattern() throws Exception {
    sql("CREATE TABLE lake.cons.c (id INT)");
    commits("c", 3);
    for (String id : List.of("etl-a", "etl-b", "adhoc")) {
      sql("CALL lake.sys.reset_consumer(table => 'cons.c', consumer_id => '" + id + "', next_snapshot_id => 2)");
    }
    sql("CALL lake.sys.clear_consumers(table => 'cons.c', including_consumers => 'etl-.*', excluding_consumers => 'etl-b')");
    assertEquals(List.of("adhoc,2", "etl-b,2"), rows("SELECT * FROM lake.cons.`c$consumers`"));
    Exception bad = assertThrows(Exception.class,
        () -> sql("CALL lake.sys.clear_consumers(table => 'cons.c', including_consumers => '[')"));
    assertTrue(bad.getMessage().contains("including_consumers"), bad.getMessage());
    sql("CALL lake.sys.clear_consumers(table => 'cons.c')");
    assertEquals(List.of(), rows("SELECT * FROM lake.cons.`c$consumers`"));
    assertEquals(List.of(), paimon("c").consumers().keySet().stream().toList());
  }

  @Test
  void consumersNotUpdatedForTheirExpirationTimeGo() throws Exception {
    sql("CREATE TABLE lake.cons.e (id INT) TBLPROPERTIES ('consumer.expiration-time' = '1 s')");
    commits("e", 6);
    sql("CALL lake.sys.reset_consumer(table => 'cons.e', consumer_id => 'stale', next_snapshot_id => 2)");
    sql("CALL lake.sys.expire_snapshots(table => 'cons.e', retain_min => 1, older_than => now())");
    assertEquals(2L, earliest("e"), "a fresh consumer holds its snapshots");
    Thread.sleep(1500);
    sql("CALL lake.sys.expire_snapshots(table => 'cons.e', retain_min => 1, older_than => now())");
    assertEquals(List.of(), rows("SELECT * FROM lake.cons.`e$consumers`"), "the stale consumer is gone");
    assertEquals(sql("SELECT max(snapshot_id) FROM lake.cons.`e$snapshots`").first().getLong(0), earliest("e"),
        "only the newest snapshot stays (retain_min 1)");
  }
}
