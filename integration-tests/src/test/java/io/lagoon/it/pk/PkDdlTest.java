package io.lagoon.it.pk;

import static io.lagoon.it.ddl.WarehouseListing.assertRefusedUnchanged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.schema.SchemaManager;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.it.LagoonSparkTest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Creating, describing and altering primary-key tables; the schema file as Paimon writes it. */
class PkDdlTest extends LagoonSparkTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void namespace() {
    sql("CREATE NAMESPACE lake.pk");
  }

  @Test
  void createStoresKeysNotNullAndTheLayoutOptions() throws IOException {
    sql("CREATE TABLE lake.pk.orders (id BIGINT, name STRING, amount DECIMAL(10, 2), dt STRING) "
        + "PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '4', 'bucket-key' = 'id', "
        + "'merge-engine' = 'partial-update')");
    JsonNode s = schema("pk.db/orders");
    assertEquals("[\"id\",\"dt\"]", s.get("primaryKeys").toString());
    assertEquals("[\"dt\"]", s.get("partitionKeys").toString());
    assertEquals("BIGINT NOT NULL", s.get("fields").get(0).get("type").asText(), "Paimon stores key columns NOT NULL");
    assertEquals("STRING", s.get("fields").get(1).get("type").asText());
    assertEquals("STRING NOT NULL", s.get("fields").get(3).get("type").asText());
    assertEquals("4", s.get("options").get("bucket").asText());
    assertEquals("id", s.get("options").get("bucket-key").asText());
    assertEquals("partial-update", s.get("options").get("merge-engine").asText());
    assertTrue(!s.get("options").has("primary-key"), "the key lives in primaryKeys, not in the options");
  }

  @Test
  void describeExtendedShowsKeyBucketsAndMergeEngine() {
    sql("CREATE TABLE lake.pk.described (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '3')");
    String props = describe("DESCRIBE TABLE EXTENDED lake.pk.described").stream()
        .filter(r -> r.startsWith("Table Properties|")).findFirst().orElseThrow();
    assertTrue(props.contains("primary-key=id"), props);
    assertTrue(props.contains("bucket=3"), props);
    assertTrue(props.contains("merge-engine=deduplicate"), "the default engine is shown: " + props);
  }

  @Test
  void showCreateTableRoundTrips() throws IOException {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.pk_copy");
    sql("CREATE TABLE lake.pk.agg (k STRING, dt DATE, total BIGINT, hits INT) PARTITIONED BY (dt) "
        + "COMMENT 'sums' TBLPROPERTIES ('primary-key' = 'dt,k', 'bucket' = '2', 'merge-engine' = 'aggregation', "
        + "'fields.total.aggregate-function' = 'sum', 'fields.hits.aggregate-function' = 'max')");
    String ddl = sql("SHOW CREATE TABLE lake.pk.agg").collectAsList().get(0).getString(0);
    assertTrue(ddl.contains("'primary-key' = 'dt,k'"), ddl);
    assertTrue(ddl.contains("'bucket' = '2'"), ddl);
    assertTrue(ddl.contains("'merge-engine' = 'aggregation'"), ddl);
    assertTrue(ddl.contains("k STRING NOT NULL"), ddl);
    sql(ddl.replace("lake.pk.agg", "lake.pk_copy.agg"));
    JsonNode a = schema("pk.db/agg");
    JsonNode b = schema("pk_copy.db/agg");
    ((ObjectNode) a).remove("timeMillis");
    ((ObjectNode) b).remove("timeMillis");
    assertEquals(a, b, "SHOW CREATE TABLE output:\n" + ddl);
  }

  @Test
  void showCreateOfADefaultEngineTableCreatesAnEquivalentTable() throws IOException {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.pk_copy");
    sql("CREATE TABLE lake.pk.plain (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    String ddl = sql("SHOW CREATE TABLE lake.pk.plain").collectAsList().get(0).getString(0);
    sql(ddl.replace("lake.pk.plain", "lake.pk_copy.plain"));
    JsonNode b = schema("pk_copy.db/plain");
    assertEquals(schema("pk.db/plain").get("fields"), b.get("fields"));
    assertEquals("[\"id\"]", b.get("primaryKeys").toString());
    assertEquals("1", b.get("options").get("bucket").asText());
    // The shown default becomes explicit: the same engine either way.
    assertEquals("deduplicate", b.get("options").path("merge-engine").asText("deduplicate"));
  }

  @Test
  void layoutOptionsCannotBeAltered() {
    sql("CREATE TABLE lake.pk.fixed (id INT, seq BIGINT, kind STRING, v STRING) TBLPROPERTIES ("
        + "'primary-key' = 'id', 'bucket' = '2', 'sequence.field' = 'seq', 'rowkind.field' = 'kind')");
    for (String change : List.of("SET TBLPROPERTIES ('primary-key' = 'v')", "SET TBLPROPERTIES ('bucket' = '8')",
        "SET TBLPROPERTIES ('bucket-key' = 'id')", "SET TBLPROPERTIES ('merge-engine' = 'first-row')",
        "SET TBLPROPERTIES ('sequence.field' = 'id')", "UNSET TBLPROPERTIES ('sequence.field')",
        "UNSET TBLPROPERTIES ('rowkind.field')", "UNSET TBLPROPERTIES ('bucket')")) {
      assertRefusedUnchanged(warehouse, () -> sql("ALTER TABLE lake.pk.fixed " + change),
          "pk.fixed", "cannot be changed after the table is created");
    }
  }

  @Test
  void alterChecksMergeOptionsAndUnsupportedFeatures() {
    sql("CREATE TABLE lake.pk.tuned (id INT, total BIGINT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', "
        + "'merge-engine' = 'aggregation', 'fields.total.aggregate-function' = 'sum')");
    assertRefusedUnchanged(warehouse, () -> sql("ALTER TABLE lake.pk.tuned SET TBLPROPERTIES "
        + "('fields.total.aggregate-function' = 'median')"), "pk.tuned", "median");
    assertRefusedUnchanged(warehouse, () -> sql("ALTER TABLE lake.pk.tuned SET TBLPROPERTIES "
        + "('deletion-vectors.enabled' = 'true')"), "pk.tuned", "deletion-vectors.enabled", "cannot be changed");
    assertRefusedUnchanged(warehouse, () -> sql("ALTER TABLE lake.pk.tuned SET TBLPROPERTIES "
        + "('changelog-producer' = 'lookup')"), "pk.tuned", "changelog");
    sql("ALTER TABLE lake.pk.tuned SET TBLPROPERTIES ('fields.total.aggregate-function' = 'max', 'my.note' = 'x')");
    String props = describe("DESCRIBE TABLE EXTENDED lake.pk.tuned").stream()
        .filter(r -> r.startsWith("Table Properties|")).findFirst().orElseThrow();
    assertTrue(props.contains("fields.total.aggregate-function=max") && props.contains("my.note=x"), props);
  }

  /** A table another engine made with options Lagoon refuses at CREATE can still get other properties. */
  @Test
  void tablesWithUnsupportedFeaturesCanStillBeAltered() throws IOException {
    sql("CREATE TABLE lake.pk.foreign (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')");
    SchemaManager schemas = new SchemaManager(new FileIO(new Configuration()),
        new org.apache.hadoop.fs.Path(warehouse.resolve("pk.db/foreign").toUri()));
    TableSchema s = schemas.latest().orElseThrow();
    Map<String, String> o = new LinkedHashMap<>(s.options());
    o.remove("bucket");
    o.put("deletion-vectors.enabled", "true");
    o.put("changelog-producer", "lookup");
    assertTrue(schemas.tryCommit(s.withOptions(1, o, System.currentTimeMillis())));
    sql("ALTER TABLE lake.pk.foreign SET TBLPROPERTIES ('my.note' = 'kept')");
    assertEquals("kept", schemas.latest().orElseThrow().options().get("my.note"));
    assertEquals("true", schemas.latest().orElseThrow().options().get("deletion-vectors.enabled"));
  }

  private static JsonNode schema(String tableDir) throws IOException {
    Path p = warehouse.resolve(tableDir).resolve("schema/schema-0");
    return JSON.readTree(p.toFile());
  }

  /** DESCRIBE output rows as "col_name|data_type|comment", nulls as empty. */
  static List<String> describe(String q) {
    List<String> out = new ArrayList<>();
    for (Row r : sql(q).collectAsList()) {
      out.add((r.isNullAt(0) ? "" : r.getString(0)) + "|" + (r.isNullAt(1) ? "" : r.getString(1)) + "|"
          + (r.isNullAt(2) ? "" : r.getString(2)));
    }
    return out;
  }
}
