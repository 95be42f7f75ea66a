package io.lagoon.it.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Everything that sends Lagoon's objects back from the tasks (write commit messages, compaction
 * and sort results) works in a session whose {@code spark.serializer} is Kryo, as many production
 * jobs set it: inserts, row-level statements and compaction procedures on each table kind.
 */
class KryoSerializerTest {
  private static SparkSession spark;
  private static Path warehouse;

  @BeforeAll
  static void start() throws IOException {
    warehouse = Files.createTempDirectory("lagoon-wh");
    spark = LagoonSparkTest.newSession(warehouse, Map.of("spark.serializer", "org.apache.spark.serializer.KryoSerializer",
        "spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    spark.sql("CREATE NAMESPACE IF NOT EXISTS lake.kryo");
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  private static List<String> rows(String q) {
    List<String> out = new ArrayList<>();
    for (Row r : spark.sql(q).collectAsList()) out.add(r.toString());
    Collections.sort(out);
    return out;
  }

  private static final String[] KINDS = {
      "pk|TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '3')",
      "pk_dv|TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', 'deletion-vectors.enabled' = 'true')",
      "append|",
      "append_dv|TBLPROPERTIES ('deletion-vectors.enabled' = 'true')",
  };

  @Test
  void writesRowLevelStatementsAndCompactionWork() {
    for (String kind : KINDS) {
      String name = kind.split("\\|", -1)[0];
      String t = "lake.kryo." + name;
      spark.sql("CREATE TABLE " + t + " (id BIGINT NOT NULL, v STRING, n INT) " + kind.split("\\|", -1)[1]);
      for (int part = 0; part < 3; part++) {
        spark.sql("INSERT INTO " + t + " SELECT id, CONCAT('v', id), CAST(id % 10 AS INT) FROM range(" + part * 100 + ", "
            + (part + 1) * 100 + ")");
      }
      spark.sql("DELETE FROM " + t + " WHERE n = 3");
      spark.sql("UPDATE " + t + " SET v = CONCAT(v, '!') WHERE n = 5");
      spark.sql("MERGE INTO " + t + " d USING (SELECT id, CAST(id % 10 AS INT) AS n FROM range(280, 320)) s ON d.id = s.id "
          + "WHEN MATCHED THEN UPDATE SET d.n = 100 + s.n WHEN NOT MATCHED THEN INSERT (id, v, n) VALUES (s.id, 'new', s.n)");
      // Source keys 283 and 293 were deleted, so the merge inserts them again.
      String expected = "SELECT id, CASE WHEN id >= 300 OR (id >= 280 AND id % 10 = 3) THEN 'new' "
          + "WHEN id % 10 = 5 THEN CONCAT('v', id, '!') ELSE CONCAT('v', id) END AS v, "
          + "CAST(CASE WHEN id >= 280 AND id < 300 AND id % 10 <> 3 THEN 100 + id % 10 ELSE id % 10 END AS INT) AS n "
          + "FROM range(0, 320) WHERE NOT (id < 280 AND id % 10 = 3)";
      assertEquals(rows(expected), rows("SELECT * FROM " + t), name + " after the row-level statements");
      String sort = name.startsWith("append") ? ", order_strategy => 'zorder', order_by => 'n,id'" : "";
      spark.sql("CALL lake.sys.compact(table => 'kryo." + name + "', compact_strategy => 'full'" + sort + ")");
      assertEquals(rows(expected), rows("SELECT * FROM " + t), name + " after compaction");
      List<String> paimon = PaimonOracle.readRows(warehouse.resolve("kryo.db").resolve(name));
      assertEquals(rows(expected).size(), paimon.size(), "Paimon 1.3.1 reads " + name);
    }
  }

  @Test
  void postponedRowsAreCompactedIntoBuckets() {
    spark.sql("CREATE TABLE lake.kryo.post (id INT NOT NULL, v STRING) TBLPROPERTIES ('primary-key' = 'id', "
        + "'bucket' = '-2', 'postpone.default-bucket-num' = '2')");
    spark.sql("INSERT INTO lake.kryo.post SELECT CAST(id AS INT), CONCAT('a', id) FROM range(0, 50)");
    // Rows a Flink job postponed, as Paimon writes them.
    PaimonOracle.writeRows(warehouse.resolve("kryo.db").resolve("post"), List.of(
        GenericRow.of(1, BinaryString.fromString("paimon")), GenericRow.of(100, BinaryString.fromString("new"))));
    spark.sql("CALL lake.sys.compact(table => 'kryo.post')");
    assertEquals(List.of("[1,paimon]", "[100,new]", "[2,a2]"),
        rows("SELECT * FROM lake.kryo.post WHERE id IN (1, 2, 100)"));
    assertEquals(51L, spark.sql("SELECT count(*) FROM lake.kryo.post").first().getLong(0));
  }

  /**
   * In local mode a broadcast is never read back through the serializer; an executor of a cluster
   * reads it so. The values a MERGE's runtime filter ships (SourceKeys) must come back equal.
   */
  @Test
  void mergeSourceKeyValuesSurviveKryo() {
    org.apache.spark.serializer.SerializerInstance kryo = spark.sparkContext().env().serializer().newInstance();
    java.util.Set<Object> values = new java.util.HashSet<>(List.of(org.apache.spark.unsafe.types.UTF8String.fromString("k1"),
        7L, 3, org.apache.spark.sql.types.Decimal.apply(new java.math.BigDecimal("12.345")), true, (short) 2, (byte) 1));
    scala.reflect.ClassTag<java.util.Set<Object>> tag = scala.reflect.ClassTag$.MODULE$.apply(java.util.Set.class);
    java.util.Set<Object> back = kryo.deserialize(kryo.serialize(values, tag), tag);
    assertEquals(values, back);
    for (Object v : values) assertEquals(true, back.contains(v), "finds " + v);
  }

  /** The configuration file readers get in a broadcast keeps its entries when an executor reads it. */
  @Test
  void shippedConfigurationSurvivesKryo() {
    org.apache.spark.serializer.SerializerInstance kryo = spark.sparkContext().env().serializer().newInstance();
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(false);
    conf.set("fs.lagoon-test.setting", "kept");
    scala.reflect.ClassTag<io.lagoon.core.fs.SerializableConfiguration> tag =
        scala.reflect.ClassTag$.MODULE$.apply(io.lagoon.core.fs.SerializableConfiguration.class);
    io.lagoon.core.fs.SerializableConfiguration back =
        kryo.deserialize(kryo.serialize(new io.lagoon.core.fs.SerializableConfiguration(conf), tag), tag);
    assertEquals("kept", back.get().get("fs.lagoon-test.setting"));
  }
}
