package io.lagoon.it.incremental;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code writeStream} into a table: each micro-batch commits once, as a snapshot whose commit user
 * is the query's id and whose commit identifier is the batch id; a query restarted after a failure
 * between its write and the checkpoint's record of the commit replays the batch and adds nothing.
 */
class StructuredStreamingWriteTest extends LagoonSparkTest {

  @org.junit.jupiter.api.BeforeAll
  static void withProcedures() {
    spark.stop();
    spark = newSession(warehouse, java.util.Map.of("spark.sql.extensions",
        "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.sw");
  }

  private static void run(String source, String sink, Path checkpoint) throws Exception {
    StreamingQuery q = spark.readStream().table("lake.sw." + source).writeStream()
        .option("checkpointLocation", checkpoint.toString()).trigger(Trigger.AvailableNow()).toTable("lake.sw." + sink);
    q.awaitTermination();
    assertTrue(q.exception().isEmpty(), () -> q.exception().get().toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"append", "pk"})
  void eachBatchCommitsOnceAcrossRestarts(String kind) throws Exception {
    String source = "src_" + kind;
    String sink = "sink_" + kind;
    sql("CREATE TABLE lake.sw." + source + " (id INT NOT NULL, v STRING)");
    sql("CREATE TABLE lake.sw." + sink + " (id INT NOT NULL, v STRING)"
        + (kind.equals("pk") ? " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')" : ""));
    Path checkpoint = Files.createTempDirectory("lagoon-ckpt");
    sql("INSERT INTO lake.sw." + source + " VALUES (1, 'a'), (2, 'b')");
    run(source, sink, checkpoint);
    assertEquals(List.of("1,a", "2,b"), rows("SELECT * FROM lake.sw." + sink));
    List<String> users = rows("SELECT DISTINCT commit_user FROM lake.sw.`" + sink + "$snapshots` WHERE commit_kind = 'APPEND'");
    assertEquals(1, users.size());
    assertTrue(users.get(0).startsWith("lagoon-stream-"), users.toString());
    assertEquals(List.of("0"), rows("SELECT commit_identifier FROM lake.sw.`" + sink + "$snapshots` WHERE commit_kind = 'APPEND'"));

    // The query died after its commit reached the table but before the checkpoint recorded it.
    Path commits = checkpoint.resolve("commits");
    try (Stream<Path> s = Files.list(commits)) {
      for (Path p : (Iterable<Path>) s::iterator) Files.delete(p);
    }
    long snapshots = sql("SELECT count(*) FROM lake.sw.`" + sink + "$snapshots`").first().getLong(0);
    run(source, sink, checkpoint);
    assertEquals(List.of("1,a", "2,b"), rows("SELECT * FROM lake.sw." + sink), "the replayed batch adds nothing");
    assertEquals(snapshots, sql("SELECT count(*) FROM lake.sw.`" + sink + "$snapshots`").first().getLong(0));

    sql("INSERT INTO lake.sw." + source + " VALUES (3, 'c')");
    run(source, sink, checkpoint);
    assertEquals(List.of("1,a", "2,b", "3,c"), rows("SELECT * FROM lake.sw." + sink), "the next batch commits once");
    assertEquals(List.of("0", "1"),
        rows("SELECT commit_identifier FROM lake.sw.`" + sink + "$snapshots` WHERE commit_kind = 'APPEND'"));
  }

  /** Streaming batches and batch INSERTs race into one table: every write that returned is there, once. */
  @org.junit.jupiter.api.Test
  void streamingBatchesRaceABatchWriter() throws Exception {
    sql("CREATE TABLE lake.sw.race_src (id INT NOT NULL, v STRING)");
    sql("CREATE TABLE lake.sw.race_sink (id INT NOT NULL, v STRING)");
    Path checkpoint = Files.createTempDirectory("lagoon-ckpt");
    java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
    Thread batches = new Thread(() -> {
      try {
        for (int i = 0; i < 6; i++) sql("INSERT INTO lake.sw.race_sink VALUES (" + (1000 + i) + ", 'batch')");
      } catch (Throwable t) {
        failed.set(t);
      }
    });
    batches.start();
    for (int run = 0; run < 3; run++) {
      sql("INSERT INTO lake.sw.race_src VALUES (" + (2 * run) + ", 's'), (" + (2 * run + 1) + ", 's')");
      run("race_src", "race_sink", checkpoint);
    }
    batches.join();
    assertEquals(null, failed.get());
    assertEquals(List.of("12"), rows("SELECT count(*) FROM lake.sw.race_sink"));
    assertEquals(List.of("12"), rows("SELECT count(DISTINCT id) FROM lake.sw.race_sink"));
    assertEquals(List.of("0", "1", "2"), rows("SELECT commit_identifier FROM lake.sw.`race_sink$snapshots` "
        + "WHERE commit_user LIKE 'lagoon-stream-%'"));
  }
}
