package io.lagoon.it.ddl;

import static io.lagoon.it.ddl.WarehouseListing.assertRefusedUnchanged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The {@code warehouse} option: a plain path, a {@code file:} URI, and the ones that cannot work. */
class WarehouseLocationTest extends LagoonSparkTest {

  private static void catalog(String name, String warehouseOption) {
    spark.conf().set("spark.sql.catalog." + name, "io.lagoon.spark.LagoonCatalog");
    spark.conf().set("spark.sql.catalog." + name + ".warehouse", warehouseOption);
  }

  @Test
  void plainLocalPathThatDoesNotExistYet() throws IOException {
    Path wh = Files.createTempDirectory("lagoon-plain").resolve("nested/wh");
    catalog("plain", wh.toString());
    sql("CREATE NAMESPACE plain.db");
    sql("CREATE TABLE plain.db.t (id INT)");
    sql("INSERT INTO plain.db.t VALUES (1)");
    assertEquals(list("1"), rows("SELECT * FROM plain.db.t"));
    assertTrue(Files.exists(wh.resolve("db.db/t/schema/schema-0")));
    assertTrue(Files.exists(wh.resolve("db.db/t/snapshot/snapshot-1")));
  }

  @Test
  void fileUri() throws IOException {
    Path wh = Files.createTempDirectory("lagoon-uri");
    catalog("uri", "file:" + wh.toAbsolutePath());
    sql("CREATE NAMESPACE uri.db");
    sql("CREATE TABLE uri.db.t (id INT)");
    assertEquals(list("db"), rows("SHOW NAMESPACES IN uri"));
    assertTrue(Files.exists(wh.resolve("db.db/t/schema/schema-0")));
  }

  @Test
  void warehouseUnderARegularFileNamesTheWarehouse() throws IOException {
    Path dir = Files.createTempDirectory("lagoon-file");
    Path file = Files.writeString(dir.resolve("plain-file"), "not a folder");
    String wh = file.resolve("wh").toString();
    catalog("under_file", wh);
    assertRefusedUnchanged(dir, () -> sql("SHOW NAMESPACES IN under_file").collectAsList(), wh, "under_file");
    assertRefusedUnchanged(dir, () -> sql("CREATE NAMESPACE under_file.db"), wh);
  }

  @Test
  void warehouseThatIsARegularFile() throws IOException {
    Path dir = Files.createTempDirectory("lagoon-file2");
    Path file = Files.writeString(dir.resolve("plain-file"), "not a folder");
    catalog("is_file", file.toString());
    assertRefusedUnchanged(dir, () -> sql("SHOW NAMESPACES IN is_file").collectAsList(), file.toString());
  }

  @Test
  void unknownUriSchemeNamesTheWarehouse() {
    catalog("no_scheme", "nosuch://x/y");
    assertRefusedUnchanged(warehouse, () -> sql("SHOW NAMESPACES IN no_scheme").collectAsList(), "nosuch://x/y");
  }

  @Test
  void missingWarehouseOptionIsNamed() {
    spark.conf().set("spark.sql.catalog.no_wh", "io.lagoon.spark.LagoonCatalog");
    assertRefusedUnchanged(warehouse, () -> sql("SHOW NAMESPACES IN no_wh").collectAsList(), "warehouse", "no_wh");
  }
}
