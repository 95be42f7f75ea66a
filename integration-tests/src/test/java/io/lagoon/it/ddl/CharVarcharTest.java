package io.lagoon.it.ddl;

import static io.lagoon.it.ddl.CreateTableDdlTest.schemaFile;
import static io.lagoon.it.ddl.WarehouseListing.assertRefusedUnchanged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.lagoon.it.LagoonSparkTest;
import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** CHAR(n)/VARCHAR(n) keep their length in the schema file, and Spark keeps enforcing it. */
class CharVarcharTest extends LagoonSparkTest {

  @BeforeAll
  static void table() {
    sql("CREATE NAMESPACE lake.cv");
    sql("CREATE TABLE lake.cv.t (c CHAR(5), v VARCHAR(10), s STRING)");
  }

  @Test
  void schemaFileKeepsLengths() throws IOException {
    JsonNode fields = schemaFile(warehouse.resolve("cv.db/t"), 0).get("fields");
    assertEquals("CHAR(5)", fields.get(0).get("type").asText());
    assertEquals("VARCHAR(10)", fields.get(1).get("type").asText());
    assertEquals("STRING", fields.get(2).get("type").asText());
  }

  @Test
  void describeAndShowCreateShowLengths() {
    assertEquals(list("c,char(5),null", "s,string,null", "v,varchar(10),null"), rows("DESCRIBE lake.cv.t"));
    String ddl = sql("SHOW CREATE TABLE lake.cv.t").collectAsList().get(0).getString(0);
    assertTrue(ddl.contains("c CHAR(5)") && ddl.contains("v VARCHAR(10)"), ddl);
  }

  @Test
  void lengthsAreEnforcedOnInsert() {
    assertRefusedUnchanged(warehouse, () -> sql("INSERT INTO lake.cv.t VALUES ('abc', '0123456789x', 's')"),
        "10");
    assertRefusedUnchanged(warehouse, () -> sql("INSERT INTO lake.cv.t VALUES ('abcdef', 'v', 's')"), "5");
  }

  @Test
  void charIsPaddedAndVarcharIsNot() {
    sql("CREATE TABLE lake.cv.pad (c CHAR(5), v VARCHAR(10))");
    sql("INSERT INTO lake.cv.pad VALUES ('ab', 'cd')");
    assertEquals(list("[ab   ],[cd]"), rows("SELECT concat('[', c, ']'), concat('[', v, ']') FROM lake.cv.pad"));
  }

  @Test
  void ctasFromCharColumnsKeepsLengths() throws IOException {
    sql("CREATE TABLE lake.cv.copy AS SELECT c, v FROM lake.cv.t");
    JsonNode fields = schemaFile(warehouse.resolve("cv.db/copy"), 0).get("fields");
    assertEquals("CHAR(5)", fields.get(0).get("type").asText());
    assertEquals("VARCHAR(10)", fields.get(1).get("type").asText());
  }

  @Test
  void nestedCharLengthsAreKeptAndEnforced() throws IOException {
    sql("CREATE TABLE lake.cv.nested (a ARRAY<CHAR(2)>, s STRUCT<x: VARCHAR(3)>)");
    JsonNode fields = schemaFile(warehouse.resolve("cv.db/nested"), 0).get("fields");
    assertEquals("CHAR(2)", fields.get(0).get("type").get("element").asText());
    assertEquals("VARCHAR(3)", fields.get(1).get("type").get("fields").get(0).get("type").asText());
    assertEquals(list("a,array<char(2)>,null", "s,struct<x:varchar(3)>,null"), rows("DESCRIBE lake.cv.nested"));
    sql("INSERT INTO lake.cv.nested VALUES (array('a'), named_struct('x', 'abc'))");
    assertRefusedUnchanged(warehouse,
        () -> sql("INSERT INTO lake.cv.nested VALUES (array('abc'), named_struct('x', 'a'))"), "2");
    assertEquals(list("[a ]"), rows("SELECT concat('[', a[0], ']') FROM lake.cv.nested"));
  }
}
