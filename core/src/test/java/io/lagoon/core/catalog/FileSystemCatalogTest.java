package io.lagoon.core.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSystemCatalogTest {
  @TempDir java.nio.file.Path dir;
  private FileSystemCatalog catalog;
  private final Identifier t = new Identifier("db", "t");
  private final List<DataField> fields = List.of(
      new DataField(0, "id", PaimonType.of(TypeRoot.BIGINT).notNull()),
      new DataField(1, "dt", PaimonType.of(TypeRoot.VARCHAR)));

  @BeforeEach
  void open() throws IOException {
    catalog = new FileSystemCatalog(new FileIO(new Configuration()), new Path(dir.resolve("wh").toUri()));
    catalog.checkReachable();
    catalog.createDatabase("db");
  }

  private FileStoreTable create(Identifier id, Map<String, String> options) throws IOException {
    return catalog.createTable(id, fields, 1, List.of("dt"), List.of(), options, "c");
  }

  @Test
  void databasesAreFoldersWithDbSuffix() throws IOException {
    catalog.createDatabase("other");
    assertTrue(Files.isDirectory(dir.resolve("wh/other.db")));
    assertEquals(List.of("db", "other"), catalog.listDatabases());
    CatalogException e = assertThrows(CatalogException.class, () -> catalog.createDatabase("other"));
    assertEquals(CatalogException.Kind.DATABASE_EXISTS, e.kind());
    catalog.dropDatabase("other", false);
    assertEquals(List.of("db"), catalog.listDatabases());
  }

  @Test
  void createTableWritesSchemaZero() throws IOException {
    FileStoreTable table = create(t, Map.of("file.format", "orc"));
    assertTrue(Files.exists(dir.resolve("wh/db.db/t/schema/schema-0")));
    assertEquals(List.of("t"), catalog.listTables("db"));
    assertEquals(table.schema().fields(), catalog.loadTable(t).schema().fields());
    assertEquals(Map.of("file.format", "orc"), catalog.loadTable(t).schema().options());
    CatalogException e = assertThrows(CatalogException.class, () -> create(t, Map.of()));
    assertEquals(CatalogException.Kind.TABLE_EXISTS, e.kind());
  }

  @Test
  void refusedCreateWritesNothing() throws IOException {
    Identifier bad = new Identifier("db", "bad");
    CatalogException e = assertThrows(CatalogException.class, () -> create(bad, Map.of("file.format", "avro")));
    assertTrue(e.getMessage().contains("db.bad") && e.getMessage().contains("avro"), e.getMessage());
    assertFalse(Files.exists(dir.resolve("wh/db.db/bad")));
    e = assertThrows(CatalogException.class,
        () -> catalog.createTable(bad, fields, 1, List.of("nope"), List.of(), Map.of(), null));
    assertTrue(e.getMessage().contains("nope"), e.getMessage());
    e = assertThrows(CatalogException.class,
        () -> catalog.createTable(bad, fields, 1, List.of("dt", "dt"), List.of(), Map.of(), null));
    assertTrue(e.getMessage().contains("twice"), e.getMessage());
    assertFalse(Files.exists(dir.resolve("wh/db.db/bad")));
    e = assertThrows(CatalogException.class, () -> create(new Identifier("nodb", "x"), Map.of()));
    assertEquals(CatalogException.Kind.NO_SUCH_DATABASE, e.kind());
    assertFalse(Files.exists(dir.resolve("wh/nodb.db")));
  }

  @Test
  void alterWritesTheNextSchemaAndKeepsTheOld() throws IOException {
    create(t, Map.of("a", "1"));
    FileStoreTable altered = catalog.alterTable(t, c -> c.set("b", "2").remove("a").set("comment", "new"));
    assertEquals(1, altered.schema().id());
    assertEquals(Map.of("b", "2"), catalog.loadTable(t).schema().options());
    assertEquals("new", catalog.loadTable(t).schema().comment());
    assertEquals(Map.of("a", "1"), altered.schemas().schema(0).options());
  }

  @Test
  void alterThatChangesNothingWritesNothing() throws IOException {
    FileStoreTable created = create(t, Map.of("a", "1"));
    FileStoreTable same = catalog.alterTable(t, c -> c.set("a", "1"));
    assertEquals(created.schema().id(), same.schema().id());
    assertFalse(Files.exists(dir.resolve("wh/db.db/t/schema/schema-1")));
  }

  @Test
  void refusedAlterWritesNothing() throws IOException {
    create(t, Map.of());
    CatalogException e = assertThrows(CatalogException.class, () -> catalog.alterTable(t, c -> c.set("file.format", "csv")));
    assertTrue(e.getMessage().contains("db.t") && e.getMessage().contains("csv"), e.getMessage());
    e = assertThrows(CatalogException.class, () -> catalog.alterTable(t, c -> c.set("bucket", "3")));
    assertTrue(e.getMessage().contains("bucket"), e.getMessage());
    e = assertThrows(CatalogException.class, () -> catalog.alterTable(t, c -> c.remove("primary-key")));
    assertTrue(e.getMessage().contains("primary-key"), e.getMessage());
    assertFalse(Files.exists(dir.resolve("wh/db.db/t/schema/schema-1")));
  }

  @Test
  void alterRetriesWhenAnotherAlterTookTheVersion() throws IOException {
    create(t, Map.of());
    int[] calls = {0};
    FileStoreTable result = catalog.alterTable(t, c -> {
      if (calls[0]++ == 0) {
        // Another writer publishes schema-1 between our read and our commit.
        try {
          catalog.alterTable(t, other -> other.set("x", "1"));
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      }
      c.set("y", "2");
    });
    assertEquals(2, result.schema().id());
    assertEquals(Map.of("x", "1", "y", "2"), result.schema().options());
  }

  @Test
  void renameAndDrop() throws IOException {
    create(t, Map.of());
    Identifier moved = new Identifier("db", "moved");
    catalog.renameTable(t, moved);
    assertEquals(List.of("moved"), catalog.listTables("db"));
    CatalogException e = assertThrows(CatalogException.class, () -> catalog.renameTable(t, moved));
    assertSame(CatalogException.Kind.NO_SUCH_TABLE, e.kind());
    catalog.dropTable(moved);
    assertEquals(List.of(), catalog.listTables("db"));
    assertFalse(Files.exists(dir.resolve("wh/db.db/moved")));
  }

  @Test
  void nonEmptyDatabaseNeedsCascade() throws IOException {
    create(t, Map.of());
    CatalogException e = assertThrows(CatalogException.class, () -> catalog.dropDatabase("db", false));
    assertEquals(CatalogException.Kind.DATABASE_NOT_EMPTY, e.kind());
    assertTrue(Files.exists(dir.resolve("wh/db.db/t/schema/schema-0")));
    catalog.dropDatabase("db", true);
    assertFalse(Files.exists(dir.resolve("wh/db.db")));
  }

  @Test
  void unreachableWarehouseIsNamed() throws IOException {
    java.nio.file.Path file = Files.writeString(dir.resolve("file"), "x");
    FileSystemCatalog underFile = new FileSystemCatalog(new FileIO(new Configuration()),
        new Path(file.resolve("wh").toUri()));
    CatalogException e = assertThrows(CatalogException.class, underFile::checkReachable);
    assertTrue(e.getMessage().contains(file.resolve("wh").toString()), e.getMessage());
    FileSystemCatalog noScheme = new FileSystemCatalog(new FileIO(new Configuration()), new Path("nosuch://x/y"));
    e = assertThrows(CatalogException.class, noScheme::checkReachable);
    assertTrue(e.getMessage().contains("nosuch://x/y"), e.getMessage());
  }
}
