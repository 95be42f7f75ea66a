package io.lagoon.it.ddl;

import static io.lagoon.it.ddl.WarehouseListing.assertRefusedUnchanged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Names that would point outside {@code <warehouse>/<db>.db/<table>/} ({@code ..}, separators, a
 * URI scheme, control characters) are refused by every statement, naming the identifier, before
 * any path is built: another warehouse beside this one, and a decoy folder, stay exactly as they
 * were, and so does this warehouse.
 */
class HostileNamesTest extends LagoonSparkTest {
  /** Holds the catalog's warehouse, another warehouse with a table, and a decoy folder. */
  private static Path root;

  @BeforeAll
  static void twoWarehouses() throws IOException {
    root = Files.createTempDirectory("lagoon-hostile");
    Path other = root.resolve("other/wh");
    spark.conf().set("spark.sql.catalog.other", "io.lagoon.spark.LagoonCatalog");
    spark.conf().set("spark.sql.catalog.other.warehouse", other.toUri().toString());
    sql("CREATE NAMESPACE other.db");
    sql("CREATE TABLE other.db.t (id INT, v STRING)");
    sql("INSERT INTO other.db.t VALUES (1, 'secret')");
    Files.createDirectories(root.resolve("decoyA.db"));
    Files.writeString(root.resolve("decoyA.db/keep.txt"), "keep");
    spark.conf().set("spark.sql.catalog.h", "io.lagoon.spark.LagoonCatalog");
    spark.conf().set("spark.sql.catalog.h.warehouse", root.resolve("wh").toUri().toString());
    sql("CREATE NAMESPACE h.db");
    sql("CREATE TABLE h.db.t (id INT, v STRING)");
    sql("INSERT INTO h.db.t VALUES (2, 'mine')");
  }

  private static void refused(String statement, String... inMessage) {
    assertRefusedUnchanged(root, () -> sql(statement).collectAsList(), inMessage);
  }

  @Test
  void namespacesThatLeaveTheWarehouse() {
    refused("SHOW TABLES IN h.`../other/wh/db`", "invalid database name '../other/wh/db'", "'/'");
    refused("DROP NAMESPACE h.`../decoyA`", "invalid database name '../decoyA'");
    refused("DROP NAMESPACE h.`../decoyA` CASCADE", "invalid database name '../decoyA'");
    refused("CREATE NAMESPACE h.`../made`", "invalid database name '../made'");
    refused("DESCRIBE NAMESPACE h.`..`", "invalid database name '..'");
    refused("SHOW TABLES IN h.`.`", "invalid database name '.'");
    refused("CREATE TABLE h.`../../other/wh/db`.x (id INT)", "invalid database name");
    refused("SELECT * FROM h.`..\\\\other`.t", "invalid database name", "'\\'");
    assertTrue(Files.exists(root.resolve("decoyA.db/keep.txt")));
    assertTrue(Files.notExists(root.resolve("made.db")));
  }

  @Test
  void tablesThatLeaveTheWarehouse() {
    String escape = "h.db.`../../other/wh/db.db/t`";
    refused("SELECT count(*) FROM " + escape, "invalid table name '../../other/wh/db.db/t'");
    refused("INSERT INTO " + escape + " VALUES (3, 'x')", "invalid table name");
    refused("ALTER TABLE " + escape + " SET TBLPROPERTIES ('k' = 'v')", "invalid table name");
    refused("ALTER TABLE " + escape + " UNSET TBLPROPERTIES ('k')", "invalid table name");
    refused("DESCRIBE TABLE " + escape, "invalid table name");
    refused("SHOW CREATE TABLE " + escape, "invalid table name");
    refused("SHOW TBLPROPERTIES " + escape, "invalid table name");
    refused("TRUNCATE TABLE " + escape, "invalid table name");
    refused("INSERT OVERWRITE " + escape + " VALUES (3, 'x')", "invalid table name");
    refused("DROP TABLE " + escape, "invalid table name");
    refused("DROP TABLE IF EXISTS " + escape, "invalid table name");
    refused("ALTER TABLE " + escape + " RENAME TO h.db.stolen", "invalid table name");
    refused("ALTER TABLE h.db.t RENAME TO h.db.`../../escaped`", "invalid table name '../../escaped'");
    refused("CREATE TABLE h.db.`../x` (id INT)", "invalid table name '../x'");
    refused("CREATE TABLE h.db.`..` AS SELECT 1 AS id", "invalid table name '..'");
    refused("SELECT * FROM h.db.`.`", "invalid table name '.'");
    refused("SELECT * FROM h.db.`a:b`", "invalid table name 'a:b'", "':'");
    refused("SELECT * FROM h.db.`tab\tname`", "invalid table name", "control character");
    refused("SELECT * FROM h.db.`.hidden`", "invalid table name '.hidden'");
    assertEquals(List.of("1,secret"), rows("SELECT * FROM other.db.t"), "the other warehouse's table is intact");
    assertEquals(List.of("2,mine"), rows("SELECT * FROM h.db.t"), "this warehouse's table is intact");
    assertTrue(Files.notExists(root.resolve("escaped")));
  }

  @Test
  void plainNamesStillWork() {
    sql("CREATE NAMESPACE h.`odd-but.plain`");
    sql("CREATE TABLE h.`odd-but.plain`.`with space-and.dots` (id INT)");
    sql("INSERT INTO h.`odd-but.plain`.`with space-and.dots` VALUES (7)");
    assertEquals(List.of("7"), rows("SELECT * FROM h.`odd-but.plain`.`with space-and.dots`"));
    assertTrue(Files.isDirectory(root.resolve("wh/odd-but.plain.db/with space-and.dots/schema")));
    sql("DROP NAMESPACE h.`odd-but.plain` CASCADE");
    assertTrue(Files.notExists(root.resolve("wh/odd-but.plain.db")));
  }
}
