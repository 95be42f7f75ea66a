package io.lagoon.it.paimon09;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Schema evolution with Paimon 0.9 in one session: Lagoon renames, widens, adds, moves, drops and
 * re-adds columns and Paimon 0.9 reads every version's rows as Lagoon does; then Paimon 0.9 changes
 * the schema again and Lagoon reads what both wrote, under every schema, the same way.
 *
 * <p>Paimon 0.9 cannot plan a filter on a column added after another column's type changed (it
 * fails on tables it evolved itself), so filters here go to Lagoon only.
 */
@RequiresPaimon09
class Paimon09SchemaEvolutionInteropTest {
  @TempDir
  static Path tmp;

  private static Paimon09Session session;

  @BeforeAll
  static void start() {
    Path warehouse = tmp.resolve("warehouse");
    session = Paimon09Session.builder(warehouse).lakeCatalog(Paimon09Session.LAGOON_CATALOG, warehouse)
        .conf("spark.sql.catalog.paimon.cache-enabled", "false").create();
    session.sql("CREATE NAMESPACE IF NOT EXISTS lake.ev");
  }

  @AfterAll
  static void stop() {
    if (session != null) session.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"append", "pk"})
  void evolvedByEitherReadTheSameByBoth(String kind) {
    String name = "t_" + kind;
    String props = kind.equals("pk") ? "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')" : "";
    session.sql("CREATE TABLE lake.ev." + name + " (id INT NOT NULL, name STRING, score INT, price FLOAT, "
        + "amount DECIMAL(6,2)) " + props);
    session.sql("INSERT INTO lake.ev." + name + " VALUES (1, 'a', 10, 1.5, 1.25), (2, NULL, 20, 2.5, 2.25), (3, 'c', 30, 3.5, 3.25)");
    session.sql("ALTER TABLE lake.ev." + name + " RENAME COLUMN name TO full_name");
    session.sql("ALTER TABLE lake.ev." + name + " ALTER COLUMN score TYPE BIGINT");
    session.sql("ALTER TABLE lake.ev." + name + " ALTER COLUMN price TYPE DOUBLE");
    session.sql("ALTER TABLE lake.ev." + name + " ADD COLUMN tag STRING AFTER id");
    session.sql("ALTER TABLE lake.ev." + name + " ALTER COLUMN amount FIRST");
    same(name);
    session.sql("INSERT INTO lake.ev." + name + " VALUES (4.5, 3, 't3', 'c2', 30000000000, 3.75), (4.5, 4, NULL, 'd', 40, 4.75)");
    session.sql("ALTER TABLE lake.ev." + name + " DROP COLUMN tag");
    session.sql("ALTER TABLE lake.ev." + name + " ADD COLUMN tag STRING");
    same(name);
    // Not asked of Paimon 0.9: a filter on a column added after another column's type changed
    // fails in its planner ("index (n) should < n"), on tables it evolved itself too.
    assertEquals(List.of("count(1)=0"), session.rows("SELECT count(*) FROM lake.ev." + name + " WHERE tag IS NOT NULL"));

    // Paimon 0.9 changes the schema and writes; Lagoon reads every version's files.
    session.sql("ALTER TABLE paimon.ev." + name + " RENAME COLUMN full_name TO label");
    session.sql("ALTER TABLE paimon.ev." + name + " ADD COLUMNS (note STRING)");
    session.sql("INSERT INTO paimon.ev." + name + " VALUES (5.5, 5, 'e', 50, 5.75, 't5', 'n5'), (5.5, 1, 'a2', 11, 1.75, NULL, 'n1')");
    same(name);
    session.sql("INSERT INTO lake.ev." + name + " VALUES (6.5, 6, 'f', 60, 6.75, 't6', NULL)");
    same(name);
    assertEquals(List.of("count(1)=2"), session.rows("SELECT count(*) FROM lake.ev." + name + " WHERE note IS NOT NULL"));
    assertEquals(List.of("count(1)=1"), session.rows("SELECT count(*) FROM lake.ev." + name + " WHERE score > 10000000000"));
  }

  private static void same(String name) {
    List<String> lagoon = SparkRows.renderAll(session.sql("SELECT * FROM lake.ev." + name));
    List<String> paimon = SparkRows.renderAll(session.sql("SELECT * FROM paimon.ev." + name));
    assertEquals(paimon, lagoon, name);
    assertEquals(List.of(session.sql("SELECT * FROM paimon.ev." + name).schema().fieldNames()),
        List.of(session.sql("SELECT * FROM lake.ev." + name).schema().fieldNames()));
  }
}
