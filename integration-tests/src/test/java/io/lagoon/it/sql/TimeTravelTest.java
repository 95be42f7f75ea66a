package io.lagoon.it.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.ddl.WarehouseListing;
import io.lagoon.it.oracle.FixtureExpectations;
import io.lagoon.it.oracle.Fixtures;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.schema.SchemaChange;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Time travel: {@code VERSION AS OF} a snapshot id or a tag, {@code TIMESTAMP AS OF}, and Paimon's
 * read options, on append, deletion-vector and primary-key tables; old snapshots read with their
 * own schema; tags read after their snapshot expired; tags Paimon wrote; clear errors for what
 * does not exist.
 */
@RequiresPaimon131
class TimeTravelTest extends LagoonSparkTest {
  private static final AtomicInteger TABLES = new AtomicInteger();

  @TempDir
  static Path tmp;

  private static final Map<String, String> KINDS = Map.of(
      "append", "",
      "append_dv", "TBLPROPERTIES ('deletion-vectors.enabled' = 'true')",
      "pk", "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')",
      "pk_dv", "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', 'deletion-vectors.enabled' = 'true')",
      "pk_dynamic", "TBLPROPERTIES ('primary-key' = 'id')");

  /** The table and the snapshot each statement of its history committed (a write may also compact). */
  private record History(String table, long[] ids) {
    long after(int statement) {
      return ids[statement - 1];
    }
  }

  /** Four statements: insert 1..4, delete 2, update 3, insert 5 (rows after each: AT_1..AT_4). */
  private static History history(String kind) {
    String t = "lake.tt." + kind + TABLES.incrementAndGet();
    sql("CREATE NAMESPACE IF NOT EXISTS lake.tt");
    sql("CREATE TABLE " + t + " (id INT" + (kind.startsWith("pk") ? " NOT NULL" : "") + ", v STRING) " + KINDS.get(kind));
    List<String> statements = List.of("INSERT INTO " + t + " VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')",
        "DELETE FROM " + t + " WHERE id = 2", "UPDATE " + t + " SET v = 'C' WHERE id = 3", "INSERT INTO " + t + " VALUES (5, 'e')");
    long[] ids = new long[statements.size()];
    for (int i = 0; i < ids.length; i++) {
      sql(statements.get(i));
      ids[i] = PaimonOracle.latestSnapshotId(dir(t)).orElseThrow();
    }
    return new History(t, ids);
  }

  private static Path dir(String table) {
    return warehouse.resolve("tt.db").resolve(table.substring(table.lastIndexOf('.') + 1));
  }

  private static final List<String> AT_1 = list("1,a", "2,b", "3,c", "4,d");
  private static final List<String> AT_2 = list("1,a", "3,c", "4,d");
  private static final List<String> AT_3 = list("1,a", "3,C", "4,d");
  private static final List<String> AT_4 = list("1,a", "3,C", "4,d", "5,e");

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"append", "append_dv", "pk", "pk_dv", "pk_dynamic"})
  void everySnapshotReadsItsRows(String kind) {
    History h = history(kind);
    String t = h.table();
    assertEquals(AT_1, rows("SELECT * FROM " + t + " VERSION AS OF " + h.after(1)));
    assertEquals(AT_2, rows("SELECT * FROM " + t + " VERSION AS OF " + h.after(2)));
    assertEquals(AT_3, rows("SELECT * FROM " + t + " FOR SYSTEM_VERSION AS OF '" + h.after(3) + "'"));
    assertEquals(AT_4, rows("SELECT * FROM " + t + " VERSION AS OF " + h.after(4)));
    assertEquals(AT_4, rows("SELECT * FROM " + t));
    // Paimon reads the same rows at every snapshot, compactions included.
    for (long id = 1; id <= h.after(4); id++) {
      assertEquals(PaimonOracle.readRows(dir(t), id), SparkRows.renderAll(sql("SELECT * FROM " + t + " VERSION AS OF " + id)),
          kind + " @ " + id);
    }
    // Filters and projections apply to the old snapshot.
    assertEquals(list("3"), rows("SELECT id FROM " + t + " VERSION AS OF " + h.after(1) + " WHERE v = 'c'"));
  }

  private static String utc(long millis) {
    return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC).format(Instant.ofEpochMilli(millis));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"append", "pk"})
  void timestampsReadTheLastSnapshotCommittedAtOrBeforeThem(String kind) {
    History h = history(kind);
    String t = h.table();
    long second = PaimonOracle.openTable(dir(t)).snapshotManager().snapshot(h.after(2)).timeMillis();
    long third = PaimonOracle.openTable(dir(t)).snapshotManager().snapshot(h.after(2) + 1).timeMillis();
    assertEquals(AT_2, rows("SELECT * FROM " + t + " TIMESTAMP AS OF '" + utc(second) + "'"));
    if (third > second + 1) assertEquals(AT_2, rows("SELECT * FROM " + t + " TIMESTAMP AS OF '" + utc(third - 1) + "'"));
    assertEquals(AT_4, rows("SELECT * FROM " + t + " TIMESTAMP AS OF '2999-01-01 00:00:00'"));
    assertEquals(AT_2, render(spark.read().option("scan.timestamp-millis", Long.toString(second)).table(t)));
    assertEquals(AT_2, render(spark.read().option("scan.timestamp", utc(second)).table(t)));

    Throwable e = assertThrows(Throwable.class, () -> rows("SELECT * FROM " + t + " TIMESTAMP AS OF '2000-01-01 00:00:00'"));
    String m = WarehouseListing.messages(e);
    assertTrue(m.contains("no snapshot committed at or before 2000-01-01T00:00:00Z")
        && m.contains("snapshots are 1.." + h.after(4)), m);
  }

  private static List<String> render(Dataset<Row> d) {
    return render(d.collectAsList());
  }

  @Test
  void readOptionsNameASnapshotOrATag() throws Exception {
    History h = history("pk");
    String t = h.table();
    tagSnapshot(t, "before-delete", h.after(1));
    assertEquals(AT_2, render(spark.read().option("scan.snapshot-id", Long.toString(h.after(2))).table(t)));
    assertEquals(AT_1, render(spark.read().option("scan.tag-name", "before-delete").table(t)));
    assertEquals(AT_1, render(spark.read().option("scan.version", "before-delete").table(t)));
    assertEquals(AT_3, render(spark.read().option("scan.version", Long.toString(h.after(3))).table(t)));

    String both = WarehouseListing.messages(assertThrows(Throwable.class,
        () -> render(spark.read().option("scan.snapshot-id", "2").option("scan.tag-name", "x").table(t))));
    assertTrue(both.contains("names several snapshots") && both.contains("scan.snapshot-id") && both.contains("scan.tag-name"),
        both);
    String bad = WarehouseListing.messages(assertThrows(Throwable.class,
        () -> render(spark.read().option("scan.snapshot-id", "two").table(t))));
    assertTrue(bad.contains("scan.snapshot-id") && bad.contains("'two'"), bad);
    String noTag = WarehouseListing.messages(assertThrows(Throwable.class,
        () -> render(spark.read().option("scan.tag-name", "nope").table(t))));
    assertTrue(noTag.contains("no tag 'nope'") && noTag.contains("[before-delete]"), noTag);
  }

  /** A Paimon tag file: the JSON of the snapshot it keeps (what Paimon's TagManager writes, minus its optional fields). */
  private static void tagSnapshot(String table, String tag, long id) throws Exception {
    Path tags = Files.createDirectories(dir(table).resolve("tag"));
    Files.copy(dir(table).resolve("snapshot").resolve("snapshot-" + id), tags.resolve("tag-" + tag));
  }

  @Test
  void aTagNamedLikeASnapshotIdWinsAndATagOutlivesItsSnapshot() throws Exception {
    History h = history("append_dv");
    String t = h.table();
    assertEquals(List.of(1L, 2L, 3L, 4L), java.util.Arrays.stream(h.ids()).boxed().toList(), "one snapshot per statement");
    tagSnapshot(t, "3", 1);
    PaimonOracle.createTag(dir(t), "paimon-tag", 2);
    assertEquals(AT_1, rows("SELECT * FROM " + t + " VERSION AS OF '3'"), "a tag named 3 is read before snapshot 3");
    assertEquals(AT_2, rows("SELECT * FROM " + t + " VERSION AS OF 'paimon-tag'"), "a tag Paimon made");
    // The snapshot files expire; the tags keep what they name (data files stay, as expiry keeps them for tags).
    Files.delete(dir(t).resolve("snapshot").resolve("snapshot-1"));
    Files.delete(dir(t).resolve("snapshot").resolve("snapshot-2"));
    assertEquals(AT_1, rows("SELECT * FROM " + t + " VERSION AS OF '3'"));
    assertEquals(AT_2, rows("SELECT * FROM " + t + " VERSION AS OF 'paimon-tag'"));
    assertEquals(AT_4, rows("SELECT * FROM " + t));
    String m = WarehouseListing.messages(assertThrows(Throwable.class, () -> rows("SELECT * FROM " + t + " VERSION AS OF 1")));
    assertTrue(m.contains("has no snapshot 1") && m.contains("snapshots are 3..4") && m.contains("[3, paimon-tag]"), m);
    String word = WarehouseListing.messages(assertThrows(Throwable.class,
        () -> rows("SELECT * FROM " + t + " VERSION AS OF 'yesterday'")));
    assertTrue(word.contains("no tag 'yesterday' and it is not a snapshot id"), word);
  }

  @Test
  void anOldSnapshotReadsWithItsOwnSchema() throws Exception {
    History h = history("pk");
    String t = h.table();
    // Paimon adds a column; Lagoon writes a row with it.
    String name = t.substring(t.lastIndexOf('.') + 1);
    try (org.apache.paimon.catalog.Catalog paimon = PaimonOracle.catalog(warehouse)) {
      paimon.alterTable(Identifier.create("tt", name), List.of(SchemaChange.addColumn("w", org.apache.paimon.types.DataTypes.INT())),
          false);
    }
    spark.sessionState().catalogManager().reset();
    sql("INSERT INTO " + t + " VALUES (6, 'f', 60)");
    assertEquals(list("1,a,null", "3,C,null", "4,d,null", "5,e,null", "6,f,60"), rows("SELECT * FROM " + t));
    assertEquals(List.of("id", "v"), List.of(sql("SELECT * FROM " + t + " VERSION AS OF " + h.after(4)).columns()));
    assertEquals(AT_4, rows("SELECT * FROM " + t + " VERSION AS OF " + h.after(4)));
    // The read option keeps the current columns (Spark fixed them before the option reaches the scan).
    assertEquals(list("1,a,null", "3,C,null", "4,d,null", "5,e,null"),
        render(spark.read().option("scan.snapshot-id", Long.toString(h.after(4))).table(t)));
  }

  @Test
  void aTableAsOfASnapshotRefusesWrites() throws Exception {
    History h = history("append");
    String t = h.table();
    org.apache.spark.sql.connector.catalog.TableCatalog catalog =
        (org.apache.spark.sql.connector.catalog.TableCatalog) spark.sessionState().catalogManager().catalog("lake");
    io.lagoon.spark.LagoonTable old = (io.lagoon.spark.LagoonTable) catalog.loadTable(
        org.apache.spark.sql.connector.catalog.Identifier.of(new String[] {"tt"}, t.substring(t.lastIndexOf('.') + 1)),
        Long.toString(h.after(1)));
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> old.newWriteBuilder(null));
    assertTrue(e.getMessage().contains("as of snapshot " + h.after(1)), e.getMessage());
    assertThrows(UnsupportedOperationException.class, () -> old.truncateTable());
    assertEquals(AT_4, rows("SELECT * FROM " + t));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {Fixtures.PAIMON_1_3_1, Fixtures.PAIMON_0_9})
  void tagsPaimonWroteReadAsTheFixtureSays(String fixture) throws Exception {
    String catalog = "tt" + fixture.replaceAll("[^a-z0-9]", "");
    Path copy = Fixtures.copyWarehouse(fixture, Files.createDirectory(tmp.resolve(catalog)));
    spark.conf().set("spark.sql.catalog." + catalog, "io.lagoon.spark.LagoonCatalog");
    spark.conf().set("spark.sql.catalog." + catalog + ".warehouse", copy.toUri().toString());
    spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
    try {
      int tags = 0;
      for (FixtureExpectations.Table table : Fixtures.expectations(fixture).values()) {
        for (FixtureExpectations.Tag tag : table.tags().values()) {
          assertEquals(tag.rows(), SparkRows.renderAll(sql("SELECT * FROM " + catalog + "." + table.name()
              + " VERSION AS OF '" + tag.name() + "'")), table.name() + " @ " + tag.name());
          tags++;
        }
      }
      assertEquals(3, tags, "every fixture table has its tag");
    } finally {
      spark.conf().set("spark.sql.datetime.java8API.enabled", "false");
    }
  }
}
