package io.lagoon.core.catalog;

import io.lagoon.core.catalog.CatalogException.Kind;
import io.lagoon.core.fileindex.FileIndexOptions;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.schema.SchemaManager;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.TableOptions;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.TypeRoot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * A catalog that is a warehouse folder, laid out as Paimon's filesystem catalog lays it out:
 * a database is {@code <warehouse>/<db>.db}, a table is a folder in it holding {@code schema/}.
 */
public final class FileSystemCatalog {
  public static final String DB_SUFFIX = ".db";
  private static final int MAX_ALTER_ATTEMPTS = 10;
  private final FileIO io;
  private final Path warehouse;

  public FileSystemCatalog(FileIO io, Path warehouse) {
    this.io = io;
    this.warehouse = warehouse;
  }

  public Path warehouse() {
    return warehouse;
  }

  public FileIO io() {
    return io;
  }

  /** Fails with a clear message when the warehouse cannot be reached or created. */
  public void checkReachable() {
    try {
      io.mkdirs(warehouse);
      if (!io.status(warehouse).isDirectory()) {
        throw new IOException("it is a file, not a folder");
      }
    } catch (IOException | RuntimeException e) {
      throw new CatalogException(Kind.INVALID, "Warehouse '" + warehouse + "' cannot be reached: " + e.getMessage());
    }
  }

  /** The database's folder; the name is checked first, so the folder is always in the warehouse. */
  public Path databaseDir(String db) {
    return new Path(warehouse, Names.checkDatabase(db) + DB_SUFFIX);
  }

  public Path tableDir(Identifier id) {
    return new Path(databaseDir(id.database), id.table);
  }

  // ---- databases ----

  public List<String> listDatabases() throws IOException {
    List<String> out = new ArrayList<>();
    for (FileStatus s : io.list(warehouse)) {
      String n = s.getPath().getName();
      if (s.isDirectory() && n.endsWith(DB_SUFFIX)) out.add(n.substring(0, n.length() - DB_SUFFIX.length()));
    }
    out.sort(String::compareTo);
    return out;
  }

  public boolean databaseExists(String db) throws IOException {
    return io.exists(databaseDir(db));
  }

  public void createDatabase(String db) throws IOException {
    Names.checkNew(db, "database");
    if (databaseExists(db)) throw new CatalogException(Kind.DATABASE_EXISTS, "Database " + db + " already exists");
    io.mkdirs(databaseDir(db));
  }

  public void dropDatabase(String db, boolean cascade) throws IOException {
    if (!databaseExists(db)) throw new CatalogException(Kind.NO_SUCH_DATABASE, "Database " + db + " does not exist");
    if (!cascade && !listTables(db).isEmpty()) {
      throw new CatalogException(Kind.DATABASE_NOT_EMPTY, "Database " + db + " is not empty: it holds tables "
          + listTables(db) + " (use CASCADE to drop them too)");
    }
    io.delete(databaseDir(db), true);
  }

  // ---- tables ----

  public List<String> listTables(String db) throws IOException {
    requireDatabase(db);
    List<String> out = new ArrayList<>();
    for (FileStatus s : io.list(databaseDir(db))) {
      if (s.isDirectory() && io.exists(new Path(s.getPath(), "schema"))) {
        if (!new SchemaManager(io, s.getPath()).listIds().isEmpty()) out.add(s.getPath().getName());
      }
    }
    out.sort(String::compareTo);
    return out;
  }

  public boolean tableExists(Identifier id) throws IOException {
    String[] branch = FileStoreTable.splitBranch(id.table);
    if (branch != null) {
      Identifier base = new Identifier(id.database, branch[0]);
      return tableExists(base)
          && !new SchemaManager(io, FileStoreTable.branchDir(tableDir(base), branch[1])).listIds().isEmpty();
    }
    return !new SchemaManager(io, tableDir(id)).listIds().isEmpty();
  }

  /** A table, or one of its branches ({@code t$branch_<name>}). */
  public FileStoreTable loadTable(Identifier id) throws IOException {
    if (!databaseExists(id.database)) {
      throw new CatalogException(Kind.NO_SUCH_TABLE, "Table " + id + " does not exist (no database " + id.database + ")");
    }
    String[] branch = FileStoreTable.splitBranch(id.table);
    if (branch != null) {
      Identifier base = new Identifier(id.database, branch[0]);
      if (!tableExists(base)) throw new CatalogException(Kind.NO_SUCH_TABLE, "Table " + base + " does not exist");
      if (!tableExists(id)) {
        throw new CatalogException(Kind.NO_SUCH_TABLE, "Table " + base + " has no branch '" + branch[1] + "'");
      }
      return FileStoreTable.loadBranch(io, tableDir(base), base.fullName(), branch[1]);
    }
    if (!tableExists(id)) throw new CatalogException(Kind.NO_SUCH_TABLE, "Table " + id + " does not exist");
    return FileStoreTable.load(io, tableDir(id), id.fullName());
  }

  /** Creates a table from a first schema (id 0). Nothing is written unless every check passes. */
  public FileStoreTable createTable(Identifier id, List<DataField> fields, int highestFieldId,
                                    List<String> partitionKeys, List<String> primaryKeys,
                                    Map<String, String> options, String comment) throws IOException {
    Names.checkNew(id.table, "table");
    requireDatabase(id.database);
    if (tableExists(id)) throw new CatalogException(Kind.TABLE_EXISTS, "Table " + id + " already exists");
    validateSchema(id, fields, partitionKeys, primaryKeys, options);
    if (!primaryKeys.isEmpty()) {
      PrimaryKeyTableRules.validateCreate(id, fields, partitionKeys, primaryKeys, options);
      fields = keysNotNull(fields, primaryKeys);
      if (!options.containsKey(TableOptions.BUCKET)) {
        // Dynamic buckets, Paimon's default for primary-key tables, said explicitly: Paimon 0.9 and
        // 1.x then agree on the layout whatever their own defaults.
        options = new java.util.LinkedHashMap<>(options);
        options.put(TableOptions.BUCKET, "-1");
      }
    }
    TableSchema schema = new TableSchema(0, fields, highestFieldId, partitionKeys, primaryKeys, options, comment,
        System.currentTimeMillis());
    SchemaManager sm = new SchemaManager(io, tableDir(id));
    if (!sm.tryCommit(schema)) throw new CatalogException(Kind.TABLE_EXISTS, "Table " + id + " already exists");
    return new FileStoreTable(io, tableDir(id), id.fullName(), schema);
  }

  public void dropTable(Identifier id) throws IOException {
    refuseBranch(id, "DROP TABLE", "CALL sys.delete_branch");
    if (!tableExists(id)) throw new CatalogException(Kind.NO_SUCH_TABLE, "Table " + id + " does not exist");
    io.delete(tableDir(id), true);
  }

  public void renameTable(Identifier from, Identifier to) throws IOException {
    refuseBranch(from, "RENAME", "the table itself");
    if (!tableExists(from)) throw new CatalogException(Kind.NO_SUCH_TABLE, "Table " + from + " does not exist");
    Names.checkNew(to.table, "table");
    if (!databaseExists(to.database)) {
      throw new CatalogException(Kind.NO_SUCH_DATABASE, "Cannot rename table " + from + " to " + to + ": database "
          + to.database + " does not exist");
    }
    if (io.exists(tableDir(to))) throw new CatalogException(Kind.TABLE_EXISTS, "Table " + to + " already exists");
    if (!io.rename(tableDir(from), tableDir(to))) {
      throw new IOException("Could not rename " + tableDir(from) + " to " + tableDir(to));
    }
  }

  /**
   * Publishes the next schema version with the options and comment that {@code change} makes of
   * the latest ones. Nothing is written when the change is refused or changes nothing; a
   * concurrent ALTER that takes the same version first makes this one re-read and re-apply.
   */
  public FileStoreTable alterTable(Identifier id, Consumer<PropertyChanges> change) throws IOException {
    return alterTable(id, change, columns -> { });
  }

  /**
   * Like {@link #alterTable(Identifier, Consumer)}, with column changes too ({@link ColumnChanges}),
   * all in one schema version.
   */
  public FileStoreTable alterTable(Identifier id, Consumer<PropertyChanges> change, Consumer<ColumnChanges> columnChange)
      throws IOException {
    for (int attempt = 1; ; attempt++) {
      FileStoreTable t = loadTable(id);
      TableSchema cur = t.schema();
      PropertyChanges c = new PropertyChanges(id, cur);
      change.accept(c);
      ColumnChanges cc = new ColumnChanges(id, cur);
      columnChange.accept(cc);
      if (c.isNoOp() && cc.isNoOp()) return t;
      validateSchema(id, cc.fields(), cur.partitionKeys(), cur.primaryKeys(), c.options());
      if (!cur.primaryKeys().isEmpty()) PrimaryKeyTableRules.validateAlter(id, cur, c.options());
      TableSchema next = new TableSchema(cur.id() + 1, cc.fields(), cc.highestFieldId(), cur.partitionKeys(),
          cur.primaryKeys(), c.options(), c.comment(), System.currentTimeMillis());
      if (t.schemas().tryCommit(next)) return t.withSchema(next);
      if (attempt == MAX_ALTER_ATTEMPTS) {
        throw new CatalogException(Kind.INVALID, "Table " + id + " is being altered concurrently; "
            + "schema-" + next.id() + " was taken " + attempt + " times, retry later");
      }
    }
  }

  private static void refuseBranch(Identifier id, String what, String instead) {
    if (FileStoreTable.splitBranch(id.table) != null) {
      throw new CatalogException(Kind.INVALID, what + " of " + id + " is not allowed on a branch; use " + instead);
    }
  }

  /** Paimon stores primary-key columns NOT NULL, so engines refuse a NULL key before it is written. */
  private static List<DataField> keysNotNull(List<DataField> fields, List<String> primaryKeys) {
    List<DataField> out = new ArrayList<>();
    for (DataField f : fields) out.add(primaryKeys.contains(f.name()) ? f.withType(f.type().notNull()) : f);
    return out;
  }

  private void requireDatabase(String db) throws IOException {
    if (!databaseExists(db)) throw new CatalogException(Kind.NO_SUCH_DATABASE, "Database " + db + " does not exist");
  }

  private static void requireDistinct(Identifier id, List<String> keys, String what) {
    Set<String> seen = new HashSet<>();
    for (String k : keys) {
      if (!seen.add(k)) throw new CatalogException(Kind.INVALID, "Table " + id + " names " + what + " column '" + k + "' twice");
    }
  }

  private static void validateSchema(Identifier id, List<DataField> fields, List<String> partitionKeys,
                                     List<String> primaryKeys, Map<String, String> options) {
    requireDistinct(id, partitionKeys, "partition");
    requireDistinct(id, primaryKeys, "primary key");
    Set<String> names = new HashSet<>();
    for (DataField f : fields) {
      if (!names.add(f.name())) throw new CatalogException(Kind.INVALID, "Table " + id + " has duplicate column " + f.name());
      if (f.type().root() == TypeRoot.TIME || f.type().root() == TypeRoot.MULTISET) {
        throw new CatalogException(Kind.INVALID, "Column " + f.name() + " of " + id + " has unsupported type " + f.type());
      }
    }
    for (String p : partitionKeys) {
      if (!names.contains(p)) {
        throw new CatalogException(Kind.INVALID, "Partition column '" + p + "' of " + id + " is not a column of the table");
      }
    }
    for (DataField f : fields) {
      if (partitionKeys.contains(f.name()) && (f.type().root().isNested() || f.type().root().isBinary())) {
        throw new CatalogException(Kind.INVALID, "Column " + f.name() + " of " + id + " has type " + f.type()
            + ", which cannot be a partition key");
      }
    }
    for (String k : primaryKeys) {
      if (!names.contains(k)) {
        throw new CatalogException(Kind.INVALID, "Primary key column '" + k + "' of " + id + " is not a column of the table");
      }
    }
    try {
      TableOptions.validate(options);
      FileIndexOptions.validate(fields, options);
    } catch (IllegalArgumentException e) {
      throw new CatalogException(Kind.INVALID, "Table " + id + ": " + e.getMessage());
    }
  }
}
