package io.lagoon.it.procedures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.ddl.WarehouseListing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The arguments the other procedure tests leave out, each doing what it says: expiry's
 * {@code retain_min}, {@code max_deletes} and a TIMESTAMP {@code older_than}; orphan removal over
 * a whole database ({@code 'db.*'}); rollback by {@code snapshot}; retention given to
 * {@code replace_tag} and {@code create_tag_from_timestamp}.
 */
class ProcedureArgumentsSqlTest extends LagoonSparkTest {
  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.args");
  }

  private static String table(String name, int commits) {
    sql("CREATE TABLE lake.args." + name + " (id INT, v STRING) TBLPROPERTIES ('write-only' = 'true')");
    for (int i = 1; i <= commits; i++) sql("INSERT INTO lake.args." + name + " VALUES (" + i + ", 'v" + i + "')");
    return "lake.args." + name;
  }

  private static List<String> snapshots(String name) throws Exception {
    try (var s = Files.list(warehouse.resolve("args.db").resolve(name).resolve("snapshot"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("snapshot-")).sorted().toList();
    }
  }

  @Test
  void expiryArgumentsCountKeepAndLimit() throws Exception {
    String t = table("ex", 8);
    // retain_min keeps the newest six; max_deletes lets one go per call; a TIMESTAMP older_than.
    assertEquals(List.of("1"), rows("CALL lake.sys.expire_snapshots(table => 'args.ex', retain_min => 6, "
        + "older_than => TIMESTAMP '2999-01-01 00:00:00', max_deletes => 1)"));
    assertEquals(7, snapshots("ex").size());
    assertEquals(List.of("1"), rows("CALL lake.sys.expire_snapshots('args.ex', 100, 6, '2999-01-01 00:00:00')"));
    assertEquals(List.of("0"), rows("CALL lake.sys.expire_snapshots(table => 'args.ex', retain_min => 6, "
        + "older_than => '2999-01-01 00:00:00')"), "six are the minimum");
    // Younger than the default hour: nothing goes without older_than.
    assertEquals(List.of("0"), rows("CALL lake.sys.expire_snapshots(table => 'args.ex', retain_min => 1)"));
    assertEquals(8, rows("SELECT * FROM " + t).size(), "expiry never changes the latest rows");
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("CALL lake.sys.expire_snapshots(table => 'args.ex', retain_max => 2, retain_min => 5)").collect(),
        "retain_max (2) must not be less than retain_min (5)");
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("CALL lake.sys.expire_snapshots(table => 'args.ex', max_deletes => 0)").collect(), "max_deletes must be at least 1");
  }

  @Test
  void orphanRemovalOverAWholeDatabaseAndRollbackBySnapshot() throws Exception {
    table("o1", 2);
    table("o2", 3);
    Path stray1 = Files.write(warehouse.resolve("args.db").resolve("o1").resolve("bucket-0").resolve("data-x-0.parquet"), new byte[1]);
    Path stray2 = Files.write(warehouse.resolve("args.db").resolve("o2").resolve("manifest").resolve("manifest-x-0"), new byte[1]);
    FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 2L * 24 * 3600 * 1000);
    Files.setLastModifiedTime(stray1, old);
    Files.setLastModifiedTime(stray2, old);
    List<String> dry = rows("CALL lake.sys.remove_orphan_files(table => 'args.*', dry_run => true)");
    assertEquals(2, dry.size(), dry.toString());
    assertTrue(Files.exists(stray1) && Files.exists(stray2), "a dry run deletes nothing");
    assertEquals(dry, rows("CALL lake.sys.remove_orphan_files('args.*')"), "default cut-off: a day ago");
    assertFalse(Files.exists(stray1) || Files.exists(stray2));
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("CALL lake.sys.remove_orphan_files(table => 'nodb.*')").collect(), "database nodb", "does not exist");

    assertEquals(List.of("true"), rows("CALL lake.sys.rollback(table => 'args.o2', snapshot => 2)"));
    assertEquals(List.of("1,v1", "2,v2"), rows("SELECT * FROM lake.args.o2"));
  }

  @Test
  void retentionOnReplacedAndTimestampTags() throws Exception {
    table("tg", 3);
    sql("CALL lake.sys.create_tag(table => 'args.tg', tag => 'a', snapshot => 1)").collect();
    sql("CALL lake.sys.replace_tag(table => 'args.tg', tag => 'a', snapshot => 2, time_retained => '2 h')").collect();
    String json = Files.readString(warehouse.resolve("args.db").resolve("tg").resolve("tag").resolve("tag-a"));
    assertTrue(json.contains("\"tagTimeRetained\" : 7200.000000000") && json.contains("\"id\" : 2"), json);
    sql("CALL lake.sys.create_tag_from_timestamp(table => 'args.tg', tag => 'ts', timestamp => 0, time_retained => '30 min')")
        .collect();
    String ts = Files.readString(warehouse.resolve("args.db").resolve("tg").resolve("tag").resolve("tag-ts"));
    assertTrue(ts.contains("\"tagTimeRetained\" : 1800.000000000") && ts.contains("\"id\" : 1"), ts);
    assertEquals(List.of("1,v1"), rows("SELECT * FROM lake.args.tg VERSION AS OF 'ts'"));
  }
}
