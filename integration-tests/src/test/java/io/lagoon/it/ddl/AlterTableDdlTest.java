package io.lagoon.it.ddl;

import static io.lagoon.it.ddl.CreateTableDdlTest.options;
import static io.lagoon.it.ddl.CreateTableDdlTest.schemaFile;
import static io.lagoon.it.ddl.WarehouseListing.assertRefusedUnchanged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.lagoon.it.LagoonSparkTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class AlterTableDdlTest extends LagoonSparkTest {

  @BeforeAll
  static void namespace() {
    sql("CREATE NAMESPACE lake.alt");
    sql("CREATE NAMESPACE lake.alt2");
  }

  @Test
  void setAndUnsetTblPropertiesWriteNewSchemaVersions() throws IOException {
    sql("CREATE TABLE lake.alt.props (id INT, s STRING) TBLPROPERTIES ('a' = '1')");
    sql("INSERT INTO lake.alt.props VALUES (1, 'x')");
    Path table = warehouse.resolve("alt.db/props");

    sql("ALTER TABLE lake.alt.props SET TBLPROPERTIES ('file.format' = 'orc', 'b' = '2')");
    JsonNode s1 = schemaFile(table, 1);
    assertEquals(1, s1.get("id").asInt());
    assertEquals(Map.of("a", "1", "b", "2", "file.format", "orc"), options(s1));
    assertEquals(Map.of("a", "1"), options(schemaFile(table, 0)), "schema-0 stays as it was");
    assertEquals(schemaFile(table, 0).get("fields"), s1.get("fields"));

    sql("ALTER TABLE lake.alt.props UNSET TBLPROPERTIES ('a')");
    assertEquals(Map.of("b", "2", "file.format", "orc"), options(schemaFile(table, 2)));
    assertFalse(Files.exists(table.resolve("schema/schema-3")));

    sql("INSERT INTO lake.alt.props VALUES (2, 'y')");
    assertEquals(list("1,x", "2,y"), rows("SELECT * FROM lake.alt.props"));
    assertTrue(rows("SHOW TBLPROPERTIES lake.alt.props").contains("file.format,orc"));
    try (var files = Files.list(table.resolve("bucket-0"))) {
      assertTrue(files.anyMatch(p -> p.toString().endsWith(".orc")), "new writes use the altered file.format");
    }
  }

  @Test
  void alterThatChangesNothingWritesNoSchema() {
    sql("CREATE TABLE lake.alt.noop (id INT) TBLPROPERTIES ('a' = '1')");
    java.util.List<String> before = WarehouseListing.of(warehouse);
    sql("ALTER TABLE lake.alt.noop SET TBLPROPERTIES ('a' = '1')");
    sql("ALTER TABLE lake.alt.noop UNSET TBLPROPERTIES ('never-set')");
    assertEquals(before, WarehouseListing.of(warehouse));
  }

  @Test
  void commentCanBeChangedThroughProperties() throws IOException {
    sql("CREATE TABLE lake.alt.commented (id INT) COMMENT 'first'");
    sql("ALTER TABLE lake.alt.commented SET TBLPROPERTIES ('comment' = 'second')");
    JsonNode s1 = schemaFile(warehouse.resolve("alt.db/commented"), 1);
    assertEquals("second", s1.get("comment").asText());
    assertEquals(Map.of(), options(s1));
  }

  @Test
  void unknownFileFormatAtAlterIsRefused() {
    sql("CREATE TABLE lake.alt.fmt (id INT)");
    assertRefusedUnchanged(warehouse,
        () -> sql("ALTER TABLE lake.alt.fmt SET TBLPROPERTIES ('file.format' = 'csv')"),
        "alt.fmt", "file.format", "csv");
    assertFalse(Files.exists(warehouse.resolve("alt.db/fmt/schema/schema-1")));
  }

  @Test
  void bucketCannotBeAltered() {
    sql("CREATE TABLE lake.alt.bucketed (id INT)");
    assertRefusedUnchanged(warehouse,
        () -> sql("ALTER TABLE lake.alt.bucketed SET TBLPROPERTIES ('bucket' = '4')"), "alt.bucketed", "bucket");
  }

  @Test
  void alteringAnUnknownTableFails() {
    assertRefusedUnchanged(warehouse,
        () -> sql("ALTER TABLE lake.alt.nope SET TBLPROPERTIES ('a' = 'b')"), "nope");
  }

  @Test
  void dropTableRemovesItsFolder() {
    sql("CREATE TABLE lake.alt.dropped (id INT)");
    sql("INSERT INTO lake.alt.dropped VALUES (1)");
    sql("DROP TABLE lake.alt.dropped");
    assertFalse(Files.exists(warehouse.resolve("alt.db/dropped")));
    assertFalse(rows("SHOW TABLES IN lake.alt").contains("alt,dropped,false"));
    sql("DROP TABLE IF EXISTS lake.alt.dropped");
    assertRefusedUnchanged(warehouse, () -> sql("DROP TABLE lake.alt.dropped"), "dropped");
  }

  @Test
  void dropTablePurgeRemovesItsFolder() {
    sql("CREATE TABLE lake.alt.purged (id INT)");
    sql("DROP TABLE lake.alt.purged PURGE");
    assertFalse(Files.exists(warehouse.resolve("alt.db/purged")));
  }

  @Test
  void renameTableKeepsItsData() {
    sql("CREATE TABLE lake.alt.old_name (id INT, dt STRING) PARTITIONED BY (dt)");
    sql("INSERT INTO lake.alt.old_name VALUES (1, 'a')");
    sql("ALTER TABLE lake.alt.old_name RENAME TO new_name");
    assertFalse(Files.exists(warehouse.resolve("alt.db/old_name")));
    assertEquals(list("1,a"), rows("SELECT * FROM lake.alt.new_name"));
    sql("ALTER TABLE lake.alt.new_name RENAME TO alt.newer_name");
    sql("ALTER TABLE lake.alt.newer_name RENAME TO lake.alt.newest_name");
    sql("INSERT INTO lake.alt.newest_name VALUES (2, 'b')");
    assertEquals(list("1,a", "2,b"), rows("SELECT * FROM lake.alt.newest_name"));
  }

  @Test
  void renameIntoAnotherNamespace() {
    sql("CREATE TABLE lake.alt.mover (id INT)");
    sql("INSERT INTO lake.alt.mover VALUES (5)");
    sql("ALTER TABLE lake.alt.mover RENAME TO alt2.moved");
    assertEquals(list("5"), rows("SELECT * FROM lake.alt2.moved"));
  }

  @Test
  void renameOntoAnExistingTableIsRefused() {
    sql("CREATE TABLE lake.alt.ren_a (id INT)");
    sql("CREATE TABLE lake.alt.ren_b (id INT)");
    assertRefusedUnchanged(warehouse, () -> sql("ALTER TABLE lake.alt.ren_a RENAME TO ren_b"), "ren_b");
  }

  @Test
  void renameOfAnUnknownTableIsRefused() {
    assertRefusedUnchanged(warehouse, () -> sql("ALTER TABLE lake.alt.ren_none RENAME TO ren_c"), "ren_none");
  }

  @Test
  void renameIntoAnUnknownNamespaceIsRefused() {
    sql("CREATE TABLE lake.alt.ren_d (id INT)");
    assertRefusedUnchanged(warehouse, () -> sql("ALTER TABLE lake.alt.ren_d RENAME TO nowhere.ren_d"), "nowhere");
  }
}
