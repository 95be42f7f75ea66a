package io.lagoon.it.incremental;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code t$audit_log} read as a stream, the way a scheduled job takes a primary-key table's
 * changes with their row kinds: a first run gives the rows as they stand, each later run from the
 * same checkpoint every change committed since, retractions included. Both agree with what
 * Paimon 1.3.1's own streaming reader gives for the same table.
 */
@RequiresPaimon131
class AuditLogStreamTest extends LagoonSparkTest {
  /** What each micro-batch of the running query held, as {@code "<kind> <row>"}. */
  private static final List<String> seen = Collections.synchronizedList(new ArrayList<>());

  @BeforeAll
  static void withProcedures() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE lake.al");
  }

  /** One scheduled run of the stream from the checkpoint; returns the records it read, sorted. */
  private static List<String> run(String table, Path checkpoint) throws Exception {
    seen.clear();
    VoidFunction2<Dataset<Row>, Long> collect = (batch, id) -> {
      for (Row r : batch.collectAsList()) {
        StringBuilder b = new StringBuilder(r.getString(0)).append(' ');
        for (int i = 1; i < r.length(); i++) {
          if (i > 1) b.append(", ");
          b.append(r.schema().fields()[i].name()).append('=').append(r.isNullAt(i) ? "null" : r.get(i));
        }
        seen.add(b.toString());
      }
    };
    StreamingQuery q = spark.readStream().table("lake.al.`" + table + "$audit_log`").writeStream()
        .foreachBatch(collect).option("checkpointLocation", checkpoint.toString())
        .trigger(Trigger.AvailableNow()).start();
    q.awaitTermination();
    assertTrue(q.exception().isEmpty(), () -> q.exception().get().toString());
    List<String> out = new ArrayList<>(seen);
    Collections.sort(out);
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"pk", "input", "dv", "append"})
  void streamedAuditLogGivesTheRowsThenEveryChangeWithItsKind(String shape) throws Exception {
    String t = "a_" + shape;
    String q = "lake.al." + t;
    String props = switch (shape) {
      case "pk" -> "'primary-key'='id', 'bucket'='2'";
      case "input" -> "'primary-key'='id', 'bucket'='2', 'changelog-producer'='input'";
      case "dv" -> "'primary-key'='id', 'bucket'='2', 'deletion-vectors.enabled'='true'";
      default -> "'bucket'='-1'";
    };
    sql("CREATE TABLE " + q + " (id INT NOT NULL, v STRING) TBLPROPERTIES (" + props + ")");
    Path dir = warehouse.resolve("al.db").resolve(t);
    Path checkpoint = Files.createTempDirectory("lagoon-ckpt");
    boolean pk = !shape.equals("append");

    sql("INSERT INTO " + q + " VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    sql("INSERT INTO " + q + " VALUES (1, 'a2'), (4, 'd')");
    if (pk) sql("DELETE FROM " + q + " WHERE id = 3");
    List<String> first = run(t, checkpoint);
    List<String> paimonFirst = InputChangelogWriteTest.flatSorted(PaimonOracle.streamFull(dir));
    assertEquals(paimonFirst, first, "the first run: the rows as they stand, as Paimon's stream starts");
    assertTrue(first.stream().noneMatch(r -> r.startsWith("-")), "no retraction in the rows as they stand: " + first);
    long seenUpTo = PaimonOracle.latestSnapshotId(dir).orElseThrow();

    sql("UPDATE " + q + " SET v = 'b2' WHERE id = 2");
    sql("DELETE FROM " + q + " WHERE id = 4");
    sql("INSERT INTO " + q + " VALUES (5, 'e')");
    if (pk) {
      sql("MERGE INTO " + q + " t USING (SELECT 5 AS id, 'e2' AS v UNION ALL SELECT 6, 'f') s ON t.id = s.id "
          + "WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT *");
      sql("CALL lake.sys.compact(table => 'al." + t + "', compact_strategy => 'full')");
    }
    List<String> second = run(t, checkpoint);
    List<String> paimonSecond = InputChangelogWriteTest.flatSorted(PaimonOracle.streamChanges(dir, seenUpTo + 1));
    assertEquals(paimonSecond, second, "the second run: every change since, as Paimon's stream gives it");
    if (pk) {
      assertTrue(second.stream().anyMatch(r -> r.startsWith("-D id=4")), "the delete is a change of its own: " + second);
    }
    assertEquals(List.of(), run(t, checkpoint), "nothing new, nothing read");
  }
}
