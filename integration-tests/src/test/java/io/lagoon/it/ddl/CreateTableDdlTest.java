package io.lagoon.it.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lagoon.it.LagoonSparkTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

class CreateTableDdlTest extends LagoonSparkTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static JsonNode schemaFile(Path table, int id) throws IOException {
    return JSON.readTree(table.resolve("schema/schema-" + id).toFile());
  }

  static Map<String, String> options(JsonNode schema) {
    Map<String, String> out = new TreeMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = schema.get("options").fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      out.put(e.getKey(), e.getValue().asText());
    }
    return out;
  }

  private static List<String> strings(JsonNode arr) {
    List<String> out = new ArrayList<>();
    arr.forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void createTableWritesPaimonSchemaJson() throws IOException {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.ct");
    sql("CREATE TABLE lake.ct.typed ("
        + " id BIGINT NOT NULL COMMENT 'row id',"
        + " amount DECIMAL(10, 2) COMMENT 'in euro',"
        + " ts TIMESTAMP, ntz TIMESTAMP_NTZ, d DATE, name STRING, code VARCHAR(10), flag BOOLEAN,"
        + " b BINARY, tags ARRAY<STRING>, attrs MAP<STRING, INT>, addr STRUCT<city: STRING, zip: INT>,"
        + " dt STRING)"
        + " PARTITIONED BY (dt) COMMENT 'typed sample' TBLPROPERTIES ('file.format' = 'orc', 'my.key' = 'v')");
    Path table = warehouse.resolve("ct.db/typed");
    JsonNode s = schemaFile(table, 0);
    assertEquals(3, s.get("version").asInt());
    assertEquals(0, s.get("id").asInt());
    JsonNode fields = s.get("fields");
    assertEquals(13, fields.size());
    String[][] expected = {
        {"0", "id", "BIGINT NOT NULL"}, {"1", "amount", "DECIMAL(10, 2)"},
        {"2", "ts", "TIMESTAMP(6) WITH LOCAL TIME ZONE"}, {"3", "ntz", "TIMESTAMP(6)"}, {"4", "d", "DATE"},
        {"5", "name", "STRING"}, {"6", "code", "VARCHAR(10)"}, {"7", "flag", "BOOLEAN"}, {"8", "b", "BYTES"}};
    for (int i = 0; i < expected.length; i++) {
      assertEquals(Integer.parseInt(expected[i][0]), fields.get(i).get("id").asInt(), expected[i][1]);
      assertEquals(expected[i][1], fields.get(i).get("name").asText());
      assertEquals(expected[i][2], fields.get(i).get("type").asText(), expected[i][1]);
    }
    assertEquals("row id", fields.get(0).get("description").asText());
    assertEquals("in euro", fields.get(1).get("description").asText());
    assertFalse(fields.get(2).has("description"));
    assertEquals("ARRAY", fields.get(9).get("type").get("type").asText());
    assertEquals("STRING", fields.get(9).get("type").get("element").asText());
    assertEquals("MAP", fields.get(10).get("type").get("type").asText());
    JsonNode addr = fields.get(11).get("type");
    assertEquals("ROW", addr.get("type").asText());
    // Nested fields get ids after their parent, depth first, as Paimon assigns them.
    assertEquals(12, addr.get("fields").get(0).get("id").asInt());
    assertEquals(13, addr.get("fields").get(1).get("id").asInt());
    assertEquals(14, fields.get(12).get("id").asInt());
    assertEquals(14, s.get("highestFieldId").asInt());
    assertEquals(List.of("dt"), strings(s.get("partitionKeys")));
    assertEquals(List.of(), strings(s.get("primaryKeys")));
    assertEquals(Map.of("file.format", "orc", "my.key", "v"), options(s));
    assertEquals("typed sample", s.get("comment").asText());
    assertTrue(s.get("timeMillis").asLong() > 0);
    assertEquals(List.of("version", "id", "fields", "highestFieldId", "partitionKeys", "primaryKeys", "options",
        "comment", "timeMillis"), fieldNames(s));
  }

  private static List<String> fieldNames(JsonNode n) {
    List<String> out = new ArrayList<>();
    n.fieldNames().forEachRemaining(out::add);
    return out;
  }

  @Test
  void partitionedTableWritesPartitionFolders() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.ct");
    sql("CREATE TABLE lake.ct.parts (id INT, dt STRING, h INT) PARTITIONED BY (dt, h)");
    sql("INSERT INTO lake.ct.parts VALUES (1, '2024-01-01', 3), (2, '2024-01-02', 4)");
    assertTrue(Files.isDirectory(warehouse.resolve("ct.db/parts/dt=2024-01-01/h=3/bucket-0")));
    assertEquals(list("2,2024-01-02,4"), rows("SELECT * FROM lake.ct.parts WHERE dt = '2024-01-02'"));
  }

  @Test
  void partitionColumnWithSpecialCharacters() throws IOException {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.ct");
    sql("CREATE TABLE lake.ct.odd (id INT, `event-day` STRING) PARTITIONED BY (`event-day`)");
    assertEquals(List.of("event-day"), strings(schemaFile(warehouse.resolve("ct.db/odd"), 0).get("partitionKeys")));
    assertTrue(describe("DESCRIBE lake.ct.odd").contains("# Partition Information||"));
    String ddl = sql("SHOW CREATE TABLE lake.ct.odd").collectAsList().get(0).getString(0);
    assertTrue(ddl.contains("PARTITIONED BY (`event-day`)"), ddl);
  }

  @Test
  void partitionColumnsMatchColumnNamesIgnoringCase() throws IOException {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.ct");
    sql("CREATE TABLE lake.ct.upper (id INT, Dt STRING) PARTITIONED BY (dT)");
    assertEquals(List.of("Dt"), strings(schemaFile(warehouse.resolve("ct.db/upper"), 0).get("partitionKeys")));
  }

  @Test
  void createTableAsSelect() throws IOException {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.ct");
    sql("CREATE TABLE lake.ct.ctas COMMENT 'copied' TBLPROPERTIES ('file.format' = 'orc') AS "
        + "SELECT id, CAST(id * 1.5 AS DECIMAL(10, 2)) AS amount, concat('n', id) AS name FROM range(3)");
    assertEquals(list("0,0.00,n0", "1,1.50,n1", "2,3.00,n2"), rows("SELECT * FROM lake.ct.ctas"));
    Path table = warehouse.resolve("ct.db/ctas");
    JsonNode s = schemaFile(table, 0);
    // Spark makes the query's columns nullable for CTAS.
    assertEquals("BIGINT", s.get("fields").get(0).get("type").asText());
    assertEquals("DECIMAL(10, 2)", s.get("fields").get(1).get("type").asText());
    assertEquals("copied", s.get("comment").asText());
    assertEquals(Map.of("file.format", "orc"), options(s));
    assertTrue(Files.exists(table.resolve("snapshot/snapshot-1")));
    assertTrue(hasFileEndingWith(table.resolve("bucket-0"), ".orc"), "CTAS writes the table's file.format");
  }

  @Test
  void partitionedCreateTableAsSelect() throws IOException {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.ct");
    sql("CREATE TABLE lake.ct.ctas_p PARTITIONED BY (dt) AS "
        + "SELECT * FROM VALUES (1, 'x'), (2, 'y'), (3, 'x') AS v(id, dt)");
    assertEquals(list("1,x", "2,y", "3,x"), rows("SELECT * FROM lake.ct.ctas_p"));
    Path table = warehouse.resolve("ct.db/ctas_p");
    assertEquals(List.of("dt"), strings(schemaFile(table, 0).get("partitionKeys")));
    assertTrue(Files.isDirectory(table.resolve("dt=x/bucket-0")));
    assertTrue(Files.isDirectory(table.resolve("dt=y/bucket-0")));
  }

  private static boolean hasFileEndingWith(Path dir, String suffix) throws IOException {
    try (var s = Files.list(dir)) {
      return s.anyMatch(p -> p.getFileName().toString().endsWith(suffix));
    }
  }

  @Test
  void describeExtendedShowsColumnsPartitioningCommentAndProperties() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.ct");
    sql("CREATE TABLE lake.ct.described (id BIGINT COMMENT 'the id', dt STRING) PARTITIONED BY (dt) "
        + "COMMENT 'described table' TBLPROPERTIES ('file.format' = 'orc', 'target-file-size' = '64 mb')");
    List<String> d = describe("DESCRIBE TABLE EXTENDED lake.ct.described");
    assertTrue(d.contains("id|bigint|the id"), d.toString());
    assertTrue(d.contains("# Partition Information||"), d.toString());
    assertEquals(2, d.stream().filter(r -> r.startsWith("dt|string|")).count(), "dt is a column and the partition");
    assertTrue(d.contains("Comment|described table|"), d.toString());
    String props = d.stream().filter(r -> r.startsWith("Table Properties|")).findFirst().orElseThrow();
    assertTrue(props.contains("file.format=orc"), props);
    assertTrue(props.contains("target-file-size=64 mb"), props);
    assertTrue(d.contains("Name|ct.described|"), d.toString());
    // Plain DESCRIBE shows columns and partitioning too.
    List<String> plain = describe("DESCRIBE lake.ct.described");
    assertTrue(plain.contains("id|bigint|the id"), plain.toString());
    assertTrue(plain.contains("# Partition Information||"), plain.toString());
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

  @Test
  void showCreateTableRoundTripsIntoAnotherNamespace() throws IOException {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.sct_src");
    sql("CREATE NAMESPACE IF NOT EXISTS lake.sct_dst");
    sql("CREATE TABLE lake.sct_src.orig (id BIGINT NOT NULL COMMENT 'it\\'s the id', amount DECIMAL(12, 3),"
        + " code CHAR(4), v VARCHAR(20), ts TIMESTAMP, tags ARRAY<INT>, dt STRING) PARTITIONED BY (dt)"
        + " COMMENT 'round trip' TBLPROPERTIES ('file.format' = 'orc', 'my.key' = 'a\\'b')");
    String ddl = sql("SHOW CREATE TABLE lake.sct_src.orig").collectAsList().get(0).getString(0);
    // Spark prints the full identifier; a user copying the table names the copy.
    String prefix = "CREATE TABLE lake.sct_src.orig ";
    assertTrue(ddl.startsWith(prefix), ddl);
    sql("USE lake.sct_dst");
    try {
      sql("CREATE TABLE orig " + ddl.substring(prefix.length()));
    } finally {
      sql("USE spark_catalog.default");
    }
    JsonNode a = schemaFile(warehouse.resolve("sct_src.db/orig"), 0);
    JsonNode b = schemaFile(warehouse.resolve("sct_dst.db/orig"), 0);
    ((com.fasterxml.jackson.databind.node.ObjectNode) a).remove("timeMillis");
    ((com.fasterxml.jackson.databind.node.ObjectNode) b).remove("timeMillis");
    assertEquals(a, b, "SHOW CREATE TABLE output:\n" + ddl);
    String again = sql("SHOW CREATE TABLE lake.sct_dst.orig").collectAsList().get(0).getString(0);
    assertEquals(ddl.replace("sct_src", "sct_dst"), again);
  }

  @Test
  void createTableIfNotExistsLeavesTheExistingTable() throws IOException {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.ct");
    sql("CREATE TABLE lake.ct.once (id INT)");
    List<String> before = WarehouseListing.of(warehouse);
    sql("CREATE TABLE IF NOT EXISTS lake.ct.once (other STRING)");
    assertEquals(before, WarehouseListing.of(warehouse));
    assertEquals("id", schemaFile(warehouse.resolve("ct.db/once"), 0).get("fields").get(0).get("name").asText());
  }

  @Test
  void usingPaimonIsAccepted() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.ct");
    sql("CREATE TABLE lake.ct.using_paimon (id INT) USING paimon");
    sql("INSERT INTO lake.ct.using_paimon VALUES (7)");
    assertEquals(list("7"), rows("SELECT * FROM lake.ct.using_paimon"));
  }
}
