package io.lagoon.it.ddl;

import static io.lagoon.it.ddl.WarehouseListing.assertRefusedUnchanged;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.lagoon.it.LagoonSparkTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Damaged metadata files are named in the error, and a failed statement changes nothing. */
class CorruptTableTest extends LagoonSparkTest {

  @BeforeAll
  static void namespace() {
    sql("CREATE NAMESPACE lake.dmg");
  }

  @Test
  void corruptLatestSnapshotIsNamedWhenReading() throws IOException {
    sql("CREATE TABLE lake.dmg.snap (id INT)");
    sql("INSERT INTO lake.dmg.snap VALUES (1)");
    sql("INSERT INTO lake.dmg.snap VALUES (2)");
    Path snapshot = warehouse.resolve("dmg.db/snap/snapshot/snapshot-2");
    Files.writeString(snapshot, "{ this is not a snapshot");
    assertRefusedUnchanged(warehouse, () -> sql("SELECT * FROM lake.dmg.snap").collectAsList(),
        "snapshot-2", "corrupt");
  }

  @Test
  void corruptLatestSnapshotIsNamedWhenWritingAndNothingIsLeftBehind() throws IOException {
    sql("CREATE TABLE lake.dmg.write (id INT)");
    sql("INSERT INTO lake.dmg.write VALUES (1)");
    Files.writeString(warehouse.resolve("dmg.db/write/snapshot/snapshot-1"), "garbage");
    assertRefusedUnchanged(warehouse, () -> sql("INSERT INTO lake.dmg.write VALUES (2)"), "snapshot-1", "corrupt");
    assertRefusedUnchanged(warehouse, () -> sql("INSERT OVERWRITE lake.dmg.write VALUES (2)"), "snapshot-1");
    // The schema alone still describes the table.
    sql("DESCRIBE lake.dmg.write").collectAsList();
  }

  @Test
  void corruptTableCanStillBeDropped() throws IOException {
    sql("CREATE TABLE lake.dmg.dropme (id INT)");
    sql("INSERT INTO lake.dmg.dropme VALUES (1)");
    Files.writeString(warehouse.resolve("dmg.db/dropme/snapshot/snapshot-1"), "garbage");
    Files.writeString(warehouse.resolve("dmg.db/dropme/schema/schema-0"), "garbage");
    sql("DROP TABLE lake.dmg.dropme");
    assertFalse(Files.exists(warehouse.resolve("dmg.db/dropme")));
  }

  @Test
  void corruptSchemaIsNamed() throws IOException {
    sql("CREATE TABLE lake.dmg.schema_bad (id INT)");
    Files.writeString(warehouse.resolve("dmg.db/schema_bad/schema/schema-0"), "[1, 2");
    assertRefusedUnchanged(warehouse, () -> sql("SELECT * FROM lake.dmg.schema_bad").collectAsList(), "schema-0");
    assertRefusedUnchanged(warehouse, () -> sql("DESCRIBE lake.dmg.schema_bad").collectAsList(), "schema-0");
  }
}
