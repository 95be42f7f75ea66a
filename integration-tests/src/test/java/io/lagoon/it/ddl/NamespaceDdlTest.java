package io.lagoon.it.ddl;

import static io.lagoon.it.ddl.WarehouseListing.assertRefusedUnchanged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class NamespaceDdlTest extends LagoonSparkTest {

  @Test
  void createShowAndDropNamespace() {
    sql("CREATE NAMESPACE lake.ns_plain");
    assertTrue(Files.isDirectory(warehouse.resolve("ns_plain.db")), "a namespace is the folder <db>.db");
    assertTrue(rows("SHOW NAMESPACES IN lake").contains("ns_plain"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.ns_plain");
    sql("DROP NAMESPACE lake.ns_plain");
    assertFalse(Files.exists(warehouse.resolve("ns_plain.db")));
    assertFalse(rows("SHOW NAMESPACES IN lake").contains("ns_plain"));
    sql("DROP NAMESPACE IF EXISTS lake.ns_plain");
  }

  @Test
  void showTablesListsTheTablesOfOneNamespace() {
    sql("CREATE NAMESPACE lake.ns_show");
    sql("CREATE NAMESPACE lake.ns_other");
    sql("CREATE TABLE lake.ns_show.b (id INT)");
    sql("CREATE TABLE lake.ns_show.a (id INT)");
    sql("CREATE TABLE lake.ns_other.c (id INT)");
    assertEquals(list("ns_show,a,false", "ns_show,b,false"), rows("SHOW TABLES IN lake.ns_show"));
    assertEquals(list("ns_show,a,false"), rows("SHOW TABLES IN lake.ns_show LIKE 'a*'"));
  }

  @Test
  void droppingANonEmptyNamespaceWithoutCascadeFailsAndKeepsEverything() {
    sql("CREATE NAMESPACE lake.ns_full");
    sql("CREATE TABLE lake.ns_full.t (id INT)");
    sql("INSERT INTO lake.ns_full.t VALUES (1)");
    assertRefusedUnchanged(warehouse, () -> sql("DROP NAMESPACE lake.ns_full"), "ns_full");
    assertEquals(list("1"), rows("SELECT * FROM lake.ns_full.t"));
  }

  @Test
  void dropNamespaceCascadeDropsItsTables() {
    sql("CREATE NAMESPACE lake.ns_cascade");
    sql("CREATE TABLE lake.ns_cascade.t (id INT)");
    sql("INSERT INTO lake.ns_cascade.t VALUES (1)");
    sql("DROP NAMESPACE lake.ns_cascade CASCADE");
    assertFalse(Files.exists(warehouse.resolve("ns_cascade.db")));
    assertFalse(rows("SHOW NAMESPACES IN lake").contains("ns_cascade"));
  }

  @Test
  void creatingAnExistingNamespaceFails() {
    sql("CREATE NAMESPACE lake.ns_twice");
    assertRefusedUnchanged(warehouse, () -> sql("CREATE NAMESPACE lake.ns_twice"), "ns_twice", "already exists");
  }

  @Test
  void droppingAnUnknownNamespaceFails() {
    assertRefusedUnchanged(warehouse, () -> sql("DROP NAMESPACE lake.ns_never"), "ns_never");
  }

  @Test
  void showTablesOfAnUnknownNamespaceFails() {
    assertRefusedUnchanged(warehouse, () -> sql("SHOW TABLES IN lake.ns_never").collectAsList(), "ns_never");
  }

  @Test
  void nestedNamespacesAreRefused() {
    assertRefusedUnchanged(warehouse, () -> sql("CREATE NAMESPACE lake.ns_a.ns_b"), "ns_a.ns_b");
  }

  @Test
  void namespaceLocationIsRefused() {
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE NAMESPACE lake.ns_loc LOCATION '" + warehouse.resolveSibling("elsewhere").toUri() + "'"),
        "ns_loc", "location");
  }
}
