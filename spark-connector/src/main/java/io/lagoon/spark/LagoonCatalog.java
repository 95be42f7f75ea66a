package io.lagoon.spark;

import io.lagoon.core.catalog.CatalogException;
import io.lagoon.core.catalog.FileSystemCatalog;
import io.lagoon.core.catalog.Names;
import io.lagoon.core.catalog.PropertyChanges;
import io.lagoon.core.catalog.TableProperties;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.TableOptions;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.SparkTypes;
import io.lagoon.spark.functions.PaimonBucketFunction;
import io.lagoon.spark.functions.SparkBucketFunction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchFunctionException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.FunctionCatalog;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;
import org.apache.spark.sql.connector.expressions.IdentityTransform;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The Spark catalog over a warehouse folder of Paimon-format tables:
 * {@code spark.sql.catalog.lake=io.lagoon.spark.LagoonCatalog},
 * {@code spark.sql.catalog.lake.warehouse=<path or URI>}. It translates Spark's calls to the core
 * {@link FileSystemCatalog} and core refusals to Spark's exceptions.
 */
public class LagoonCatalog implements TableCatalog, SupportsNamespaces, FunctionCatalog {
  private String name;
  private FileSystemCatalog catalog;

  @Override
  public void initialize(String catalogName, CaseInsensitiveStringMap options) {
    this.name = catalogName;
    String warehouse = options.get("warehouse");
    if (warehouse == null || warehouse.isBlank()) {
      throw new IllegalArgumentException("Catalog '" + catalogName + "' needs option 'warehouse' "
          + "(spark.sql.catalog." + catalogName + ".warehouse=<path or URI>)");
    }
    Configuration conf = SparkSession.active().sessionState().newHadoopConf();
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (e.getKey().startsWith("hadoop.")) conf.set(e.getKey().substring("hadoop.".length()), e.getValue());
    }
    try {
      this.catalog = new FileSystemCatalog(new FileIO(conf), new Path(warehouse));
      catalog.checkReachable();
    } catch (CatalogException e) {
      // Spark loads a catalog on first use, so the statement that fails here may not mention it.
      throw new IllegalArgumentException("Catalog '" + catalogName + "': " + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("Catalog '" + catalogName + "': warehouse '" + warehouse
          + "' cannot be used: " + e.getMessage(), e);
    }
  }

  @Override
  public String name() {
    return name;
  }

  /** Unqualified names (after {@code USE lake}) resolve in database {@code default}, as in Paimon. */
  @Override
  public String[] defaultNamespace() {
    return new String[] {"default"};
  }

  public FileSystemCatalog core() {
    return catalog;
  }

  // ---- namespaces ----

  @Override
  public String[][] listNamespaces() {
    List<String> dbs = io(() -> catalog.listDatabases());
    String[][] out = new String[dbs.size()][];
    for (int i = 0; i < out.length; i++) out[i] = new String[] {dbs.get(i)};
    return out;
  }

  @Override
  public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
    if (namespace.length == 0) return listNamespaces();
    if (!namespaceExists(namespace)) throw new NoSuchNamespaceException(namespace);
    return new String[0][];
  }

  @Override
  public boolean namespaceExists(String[] namespace) {
    return namespace.length == 1 && io(() -> catalog.databaseExists(checkedDatabase(namespace[0])));
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(String[] namespace) throws NoSuchNamespaceException {
    if (!namespaceExists(namespace)) throw new NoSuchNamespaceException(namespace);
    Map<String, String> md = new LinkedHashMap<>();
    md.put(SupportsNamespaces.PROP_LOCATION, catalog.databaseDir(checkedDatabase(namespace[0])).toString());
    return md;
  }

  @Override
  public void createNamespace(String[] namespace, Map<String, String> metadata) throws NamespaceAlreadyExistsException {
    String db = database(namespace);
    if (metadata.containsKey(SupportsNamespaces.PROP_LOCATION)) {
      throw new IllegalArgumentException("Namespace " + db + " cannot have a LOCATION ('"
          + metadata.get(SupportsNamespaces.PROP_LOCATION) + "'): namespaces are folders <name>.db in the warehouse "
          + catalog.warehouse());
    }
    try {
      catalog.createDatabase(db);
    } catch (CatalogException e) {
      if (e.kind() == CatalogException.Kind.DATABASE_EXISTS) throw new NamespaceAlreadyExistsException(namespace);
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create namespace " + db + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void alterNamespace(String[] namespace, NamespaceChange... changes) {
    throw new UnsupportedOperationException("Namespace " + String.join(".", namespace)
        + " has no properties to alter: Lagoon namespaces are plain folders");
  }

  @Override
  public boolean dropNamespace(String[] namespace, boolean cascade)
      throws NoSuchNamespaceException, NonEmptyNamespaceException {
    if (!namespaceExists(namespace)) throw new NoSuchNamespaceException(namespace);
    try {
      catalog.dropDatabase(checkedDatabase(namespace[0]), cascade);
      return true;
    } catch (CatalogException e) {
      if (e.kind() == CatalogException.Kind.DATABASE_NOT_EMPTY) throw new NonEmptyNamespaceException(namespace);
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot drop namespace " + namespace[0] + ": " + e.getMessage(), e);
    }
  }

  // ---- tables ----

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    if (!namespaceExists(namespace)) throw new NoSuchNamespaceException(namespace);
    List<String> tables = io(() -> catalog.listTables(checkedDatabase(namespace[0])));
    Identifier[] out = new Identifier[tables.size()];
    for (int i = 0; i < out.length; i++) out[i] = Identifier.of(namespace, tables.get(i));
    return out;
  }

  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    if (ident.namespace().length != 1) throw new NoSuchTableException(ident);
    if (ident.name().endsWith("$audit_log") && ident.name().length() > 10) {
      String base = ident.name().substring(0, ident.name().length() - 10);
      return new LagoonAuditLogTable(((LagoonTable) loadTable(Identifier.of(ident.namespace(), base))).core());
    }
    if (ident.name().endsWith("$ro") && ident.name().length() > 3) {
      String base = ident.name().substring(0, ident.name().length() - 3);
      return LagoonTable.readOptimized(((LagoonTable) loadTable(Identifier.of(ident.namespace(), base))).core());
    }
    String[] system = io.lagoon.core.system.SystemTables.split(ident.name());
    if (system != null) {
      FileStoreTable base = ((LagoonTable) loadTable(Identifier.of(ident.namespace(), system[0]))).core();
      return new LagoonSystemTable(io.lagoon.core.system.SystemTables.of(system[1]), base);
    }
    io.lagoon.core.catalog.Identifier id = coreId(ident);
    try {
      return new LagoonTable(catalog.loadTable(id));
    } catch (CatalogException e) {
      throw new NoSuchTableException(ident);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot load table " + id + ": " + e.getMessage(), e);
    }
  }

  /**
   * {@code VERSION AS OF}: a tag of that name, else a snapshot id (Paimon's order). The table reads
   * that snapshot with the schema it was committed with.
   */
  @Override
  public Table loadTable(Identifier ident, String version) throws NoSuchTableException {
    String[] system = io.lagoon.core.system.SystemTables.split(ident.name());
    if (system != null) {
      FileStoreTable base = ((LagoonTable) loadTable(Identifier.of(ident.namespace(), system[0]))).core();
      try {
        return new LagoonSystemTable(io.lagoon.core.system.SystemTables.of(system[1]), base,
            base.timeTravel().version(version));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the snapshots of " + base.fullName() + ": " + e.getMessage(), e);
      }
    }
    Table loaded = loadTable(ident);
    if (!(loaded instanceof LagoonTable)) {
      throw new UnsupportedOperationException(ident.name() + " cannot be read as of a version (time travel)");
    }
    FileStoreTable table = ((LagoonTable) loaded).core();
    try {
      return LagoonTable.asOf(table, table.timeTravel().version(version));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the snapshots of " + table.fullName() + ": " + e.getMessage(), e);
    }
  }

  /** {@code TIMESTAMP AS OF} (micros since the epoch): the last snapshot committed at or before it. */
  @Override
  public Table loadTable(Identifier ident, long timestamp) throws NoSuchTableException {
    String[] system = io.lagoon.core.system.SystemTables.split(ident.name());
    if (system != null) {
      FileStoreTable base = ((LagoonTable) loadTable(Identifier.of(ident.namespace(), system[0]))).core();
      try {
        return new LagoonSystemTable(io.lagoon.core.system.SystemTables.of(system[1]), base,
            base.timeTravel().atOrBefore(Math.floorDiv(timestamp, 1000L)));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the snapshots of " + base.fullName() + ": " + e.getMessage(), e);
      }
    }
    Table loaded = loadTable(ident);
    if (!(loaded instanceof LagoonTable)) {
      throw new UnsupportedOperationException(ident.name() + " cannot be read as of a time (time travel)");
    }
    FileStoreTable table = ((LagoonTable) loaded).core();
    try {
      return LagoonTable.asOf(table, table.timeTravel().atOrBefore(Math.floorDiv(timestamp, 1000L)));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the snapshots of " + table.fullName() + ": " + e.getMessage(), e);
    }
  }

  /** Existence from the folder listing alone, so a table whose metadata is damaged can still be dropped. */
  @Override
  public boolean tableExists(Identifier ident) {
    return ident.namespace().length == 1 && io(() -> catalog.tableExists(coreId(ident)));
  }

  @Override
  public Table createTable(Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    io.lagoon.core.catalog.Identifier id = coreId(ident);
    if (!namespaceExists(ident.namespace())) throw new NoSuchNamespaceException(ident.namespace());
    try {
      TableProperties props = TableProperties.of(id, properties);
      List<String> partitionKeys = partitionKeys(id, partitions, props.partitionKeys());
      refuseUnsupportedLayout(id, props, schema);
      AtomicInteger ids = new AtomicInteger(-1);
      List<DataField> fields = SparkTypes.fromSpark(schema, ids);
      FileStoreTable t = catalog.createTable(id, fields, ids.get(), partitionKeys, props.primaryKeys(),
          props.options(), props.comment());
      return new LagoonTable(t);
    } catch (CatalogException e) {
      if (e.kind() == CatalogException.Kind.TABLE_EXISTS) throw new TableAlreadyExistsException(ident);
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (SparkTypes.UnsupportedTypeException e) {
      throw new IllegalArgumentException("Cannot create table " + id + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create table " + id + ": " + e.getMessage(), e);
    }
  }

  private static List<String> partitionKeys(io.lagoon.core.catalog.Identifier id, Transform[] partitions,
                                            List<String> fromOption) {
    List<String> keys = new ArrayList<>();
    for (Transform t : partitions) {
      if (!(t instanceof IdentityTransform) || ((IdentityTransform) t).ref().fieldNames().length != 1) {
        throw new IllegalArgumentException("Table " + id + " cannot be partitioned by " + t.describe()
            + ": Lagoon tables are partitioned by plain top-level columns, e.g. PARTITIONED BY (dt)");
      }
      keys.add(((IdentityTransform) t).ref().fieldNames()[0]);
    }
    if (!keys.isEmpty() && !fromOption.isEmpty() && !keys.equals(fromOption)) {
      throw new IllegalArgumentException("Table " + id + " has PARTITIONED BY " + keys + " and a different '"
          + TableOptions.PARTITION + "' property " + fromOption);
    }
    return keys.isEmpty() ? fromOption : keys;
  }

  /**
   * An append table's bucketing (fixed buckets need {@code bucket-key}); primary-key layouts are
   * checked by the core catalog ({@code PrimaryKeyTableRules}).
   */
  private static void refuseUnsupportedLayout(io.lagoon.core.catalog.Identifier id, TableProperties props,
                                              StructType schema) {
    if (!props.primaryKeys().isEmpty()) return;
    io.lagoon.core.catalog.AppendTableRules.requireValidBucketing(id.toString(), props.options(),
        java.util.Arrays.asList(schema.fieldNames()));
  }

  @Override
  public Table alterTable(Identifier ident, TableChange... changes) throws NoSuchTableException {
    if (!tableExists(ident)) throw new NoSuchTableException(ident);
    io.lagoon.core.catalog.Identifier id = coreId(ident);
    try {
      return new LagoonTable(catalog.alterTable(id, edit -> apply(edit, changes), edit -> ColumnChangeTranslation.apply(edit, changes)));
    } catch (CatalogException e) {
      if (e.kind() == CatalogException.Kind.NO_SUCH_TABLE) throw new NoSuchTableException(ident);
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot alter table " + id + ": " + e.getMessage(), e);
    }
  }

  private static void apply(PropertyChanges edit, TableChange[] changes) {
    for (TableChange c : changes) {
      if (c instanceof TableChange.SetProperty) {
        edit.set(((TableChange.SetProperty) c).property(), ((TableChange.SetProperty) c).value());
      } else if (c instanceof TableChange.RemoveProperty) {
        edit.remove(((TableChange.RemoveProperty) c).property());
      }
    }
  }

  @Override
  public boolean dropTable(Identifier ident) {
    if (!tableExists(ident)) return false;
    try {
      catalog.dropTable(coreId(ident));
      return true;
    } catch (CatalogException e) {
      if (e.kind() == CatalogException.Kind.INVALID) throw new IllegalArgumentException(e.getMessage(), e);
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot drop table " + coreId(ident) + ": " + e.getMessage(), e);
    }
  }

  /** Dropping already deletes the table's folder, data files included. */
  @Override
  public boolean purgeTable(Identifier ident) {
    return dropTable(ident);
  }

  @Override
  public void renameTable(Identifier oldIdent, Identifier newIdent) throws NoSuchTableException, TableAlreadyExistsException {
    Identifier target = renameTarget(oldIdent, newIdent);
    try {
      catalog.renameTable(coreId(oldIdent), coreId(target));
    } catch (CatalogException e) {
      if (e.kind() == CatalogException.Kind.NO_SUCH_TABLE) throw new NoSuchTableException(oldIdent);
      if (e.kind() == CatalogException.Kind.TABLE_EXISTS) throw new TableAlreadyExistsException(target);
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot rename table " + coreId(oldIdent) + ": " + e.getMessage(), e);
    }
  }

  /**
   * Spark hands RENAME TO's name over as written: {@code t2} stays in the old namespace, and
   * {@code lake.db.t2} carries this catalog's name, which is dropped.
   */
  private Identifier renameTarget(Identifier oldIdent, Identifier newIdent) {
    String[] ns = newIdent.namespace();
    if (ns.length == 0) return Identifier.of(oldIdent.namespace(), newIdent.name());
    if (ns.length == 2 && ns[0].equals(name)) return Identifier.of(Arrays.copyOfRange(ns, 1, 2), newIdent.name());
    return newIdent;
  }

  // ---- functions ----

  /**
   * Functions live in the catalog's root (where Spark looks up the functions a write's required
   * distribution names) and in {@code sys}, as Paimon's system functions do.
   */
  @Override
  public Identifier[] listFunctions(String[] namespace) throws NoSuchNamespaceException {
    if (!isFunctionNamespace(namespace)) throw new NoSuchNamespaceException(namespace);
    return new Identifier[] {Identifier.of(namespace, PaimonBucketFunction.NAME),
        Identifier.of(namespace, PaimonBucketFunction.TASK_NAME), Identifier.of(namespace, SparkBucketFunction.NAME)};
  }

  @Override
  public UnboundFunction loadFunction(Identifier ident) throws NoSuchFunctionException {
    if (isFunctionNamespace(ident.namespace())) {
      if (ident.name().equalsIgnoreCase(PaimonBucketFunction.NAME)) return new PaimonBucketFunction();
      if (ident.name().equalsIgnoreCase(PaimonBucketFunction.TASK_NAME)) return PaimonBucketFunction.task();
      if (ident.name().equalsIgnoreCase(SparkBucketFunction.NAME)) return new SparkBucketFunction();
    }
    throw new NoSuchFunctionException(ident);
  }

  private static boolean isFunctionNamespace(String[] namespace) {
    return namespace.length == 0 || (namespace.length == 1 && namespace[0].equals("sys"));
  }

  /** The core name of a Spark identifier; a name that is no plain folder name is refused here. */
  private static io.lagoon.core.catalog.Identifier coreId(Identifier ident) {
    try {
      return new io.lagoon.core.catalog.Identifier(database(ident.namespace()), ident.name());
    } catch (CatalogException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  private static String checkedDatabase(String db) {
    try {
      return Names.checkDatabase(db);
    } catch (CatalogException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  private static String database(String[] namespace) {
    if (namespace.length != 1) {
      throw new IllegalArgumentException("Lagoon namespaces have exactly one level (a database), got "
          + String.join(".", namespace));
    }
    return namespace[0];
  }

  private interface IoCall<T> {
    T call() throws IOException;
  }

  private <T> T io(IoCall<T> call) {
    try {
      return call.call();
    } catch (IOException e) {
      throw new UncheckedIOException("Catalog '" + name + "' (warehouse " + catalog.warehouse() + "): "
          + e.getMessage(), e);
    }
  }
}
