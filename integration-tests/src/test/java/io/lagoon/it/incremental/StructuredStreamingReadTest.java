package io.lagoon.it.incremental;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

/**
 * A table read as a stream with {@code Trigger.AvailableNow}, the pattern of a scheduled
 * incremental job: the first run reads the whole table, each later run restarted from the same
 * checkpoint reads only what was committed since (compactions bring nothing new), each row once.
 */
class StructuredStreamingReadTest extends LagoonSparkTest {

  @org.junit.jupiter.api.BeforeAll
  static void withProcedures() {
    spark.stop();
    spark = newSession(warehouse, java.util.Map.of("spark.sql.extensions",
        "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
  }

  /** One scheduled run: the stream from the checkpoint to the latest snapshot, into a Parquet folder. */
  private static void run(String table, Path checkpoint, Path out) throws Exception {
    StreamingQuery q = spark.readStream().table("lake.ss." + table).writeStream().format("parquet")
        .option("checkpointLocation", checkpoint.toString()).option("path", out.toString())
        .trigger(Trigger.AvailableNow()).start();
    q.awaitTermination();
    assertTrue(q.exception().isEmpty(), () -> q.exception().get().toString());
  }

  private static List<String> output(Path out) {
    if (!Files.exists(out)) return List.of();
    return rows("SELECT * FROM parquet.`" + out + "`");
  }

  @Test
  void scheduledRunsReadEachAppendedRowOnce() throws Exception {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.ss");
    sql("CREATE TABLE lake.ss.events (id INT, v STRING)");
    Path checkpoint = Files.createTempDirectory("lagoon-ckpt");
    Path out = Files.createTempDirectory("lagoon-out").resolve("events");
    sql("INSERT INTO lake.ss.events VALUES (1, 'a'), (2, 'b')");
    sql("INSERT INTO lake.ss.events VALUES (3, 'c')");
    run("events", checkpoint, out);
    assertEquals(List.of("1,a", "2,b", "3,c"), output(out), "the first run reads the table");
    sql("INSERT INTO lake.ss.events VALUES (4, 'd')");
    sql("CALL lake.sys.compact(table => 'ss.events', compact_strategy => 'full')");
    sql("INSERT INTO lake.ss.events VALUES (5, 'e'), (6, NULL)");
    run("events", checkpoint, out);
    assertEquals(List.of("1,a", "2,b", "3,c", "4,d", "5,e", "6,null"), output(out), "the second reads what came since");
    run("events", checkpoint, out);
    assertEquals(6, output(out).size(), "nothing new, nothing read");
  }

  @Test
  void primaryKeyStreamCarriesNewValuesNotRetractions() throws Exception {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.ss");
    sql("CREATE TABLE lake.ss.users (id INT NOT NULL, name STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')");
    Path checkpoint = Files.createTempDirectory("lagoon-ckpt");
    Path out = Files.createTempDirectory("lagoon-out").resolve("users");
    sql("INSERT INTO lake.ss.users VALUES (1, 'ann'), (2, 'bob'), (3, 'cy')");
    sql("INSERT INTO lake.ss.users VALUES (1, 'ann2')");
    run("users", checkpoint, out);
    assertEquals(List.of("1,ann2", "2,bob", "3,cy"), output(out), "the first run reads the merged table");
    sql("UPDATE lake.ss.users SET name = 'bob2' WHERE id = 2");
    sql("DELETE FROM lake.ss.users WHERE id = 3");
    sql("INSERT INTO lake.ss.users VALUES (4, 'dee')");
    run("users", checkpoint, out);
    List<String> got = new ArrayList<>(output(out));
    assertEquals(List.of("1,ann2", "2,bob", "2,bob2", "3,cy", "4,dee"), got, "new values; the delete is not a row");
  }

  @Test
  void startFromASnapshotOrOnlyNewChanges() throws Exception {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.ss");
    sql("CREATE TABLE lake.ss.log (id INT)");
    for (int i = 1; i <= 3; i++) sql("INSERT INTO lake.ss.log VALUES (" + i + ")");
    Path out = Files.createTempDirectory("lagoon-out").resolve("log");
    StreamingQuery q = spark.readStream().option("scan.mode", "from-snapshot").option("scan.snapshot-id", "2")
        .table("lake.ss.log").writeStream().format("parquet")
        .option("checkpointLocation", Files.createTempDirectory("lagoon-ckpt").toString()).option("path", out.toString())
        .trigger(Trigger.AvailableNow()).start();
    q.awaitTermination();
    assertEquals(List.of("2", "3"), output(out), "changes of snapshot 2 on");
    Path latest = Files.createTempDirectory("lagoon-out").resolve("latest");
    Path ckpt = Files.createTempDirectory("lagoon-ckpt");
    Runnable start = () -> {
      try {
        spark.readStream().option("scan.mode", "latest").table("lake.ss.log").writeStream().format("parquet")
            .option("checkpointLocation", ckpt.toString()).option("path", latest.toString())
            .trigger(Trigger.AvailableNow()).start().awaitTermination();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    };
    start.run();
    assertEquals(List.of(), output(latest), "latest: nothing before the query started");
    sql("INSERT INTO lake.ss.log VALUES (4)");
    start.run();
    assertEquals(List.of("4"), output(latest));
    Exception bad = assertThrows(Exception.class, () -> spark.readStream().option("scan.mode", "sideways")
        .table("lake.ss.log").writeStream().format("parquet").option("checkpointLocation",
            Files.createTempDirectory("lagoon-ckpt").toString()).option("path", latest + "-bad")
        .trigger(Trigger.AvailableNow()).start().awaitTermination());
    assertTrue(String.valueOf(bad.getMessage()).contains("scan.mode"), bad.getMessage());
  }

  /** A named consumer: the stream starts where it stands, records its progress, and expiry keeps what it has not read. */
  @Test
  void consumerIdRecordsProgressAndStartsFromATag() throws Exception {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.ss");
    sql("CREATE TABLE lake.ss.feed (id INT)");
    for (int i = 1; i <= 3; i++) sql("INSERT INTO lake.ss.feed VALUES (" + i + ")");
    sql("CALL lake.sys.create_tag(table => 'ss.feed', tag => 't2', snapshot => 2)");
    Path out = Files.createTempDirectory("lagoon-out").resolve("feed");
    StreamingQuery q = spark.readStream().option("scan.mode", "from-snapshot").option("scan.tag-name", "t2")
        .option("consumer-id", "etl").table("lake.ss.feed").writeStream().format("parquet")
        .option("checkpointLocation", Files.createTempDirectory("lagoon-ckpt").toString()).option("path", out.toString())
        .trigger(Trigger.AvailableNow()).start();
    q.awaitTermination();
    assertEquals(List.of("2", "3"), output(out), "from the tag's snapshot on");
    assertEquals(List.of("etl,4"), rows("SELECT * FROM lake.ss.`feed$consumers`"), "the next snapshot to read");
    // A new query under the same consumer (no checkpoint) goes on where the consumer stands.
    sql("INSERT INTO lake.ss.feed VALUES (4)");
    Path next = Files.createTempDirectory("lagoon-out").resolve("feed2");
    spark.readStream().option("consumer-id", "etl").table("lake.ss.feed").writeStream().format("parquet")
        .option("checkpointLocation", Files.createTempDirectory("lagoon-ckpt").toString()).option("path", next.toString())
        .trigger(Trigger.AvailableNow()).start().awaitTermination();
    assertEquals(List.of("4"), output(next));
    assertEquals(List.of("etl,5"), rows("SELECT * FROM lake.ss.`feed$consumers`"));
    // Trigger.Once: one batch of what is there.
    sql("INSERT INTO lake.ss.feed VALUES (5)");
    Path once = Files.createTempDirectory("lagoon-out").resolve("once");
    spark.readStream().option("scan.mode", "from-snapshot").option("scan.snapshot-id", "5").table("lake.ss.feed")
        .writeStream().format("parquet").option("checkpointLocation", Files.createTempDirectory("lagoon-ckpt").toString())
        .option("path", once.toString()).trigger(Trigger.Once()).start().awaitTermination();
    assertEquals(List.of("5"), output(once));
  }

  /**
   * A batch read cannot tell when its job has committed, so it refuses {@code consumer-id} with an
   * error that names the option and the ways that work, and leaves the consumer where it stood.
   */
  @Test
  void consumerIdOnABatchReadIsRefusedAndTheConsumerStays() throws Exception {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.ss");
    sql("CREATE TABLE lake.ss.daily (id INT NOT NULL, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    sql("INSERT INTO lake.ss.daily VALUES (1, 'a')");
    sql("INSERT INTO lake.ss.daily VALUES (2, 'b')");
    sql("CALL lake.sys.reset_consumer(table => 'ss.daily', consumer_id => 'job', next_snapshot_id => 2)");
    List<org.junit.jupiter.api.function.Executable> reads = List.of(
        () -> spark.read().option("consumer-id", "job").table("lake.ss.daily").collectAsList(),
        () -> spark.read().option("consumer-id", "job").table("lake.ss.`daily$audit_log`").collectAsList(),
        () -> spark.read().option("consumer-id", "job").option("incremental-between", "1,2").table("lake.ss.daily")
            .collectAsList(),
        () -> spark.read().option("consumer-id", "job").option("incremental-between", "1,2")
            .table("lake.ss.`daily$audit_log`").collectAsList());
    for (org.junit.jupiter.api.function.Executable read : reads) {
      Exception e = assertThrows(Exception.class, read);
      assertTrue(e.getMessage().contains("consumer-id ('job') works on streams only")
          && e.getMessage().contains("Trigger.AvailableNow"), e.getMessage());
    }
    assertEquals(List.of("job,2"), rows("SELECT * FROM lake.ss.`daily$consumers`"), "the consumer stays where it was");
    // The same option on a stream: from the consumer's snapshot on, then recorded.
    Path out = Files.createTempDirectory("lagoon-out").resolve("daily");
    spark.readStream().option("consumer-id", "job").table("lake.ss.daily").writeStream().format("parquet")
        .option("checkpointLocation", Files.createTempDirectory("lagoon-ckpt").toString()).option("path", out.toString())
        .trigger(Trigger.AvailableNow()).start().awaitTermination();
    assertEquals(List.of("2,b"), output(out));
    assertEquals(List.of("job,3"), rows("SELECT * FROM lake.ss.`daily$consumers`"));
  }
}
