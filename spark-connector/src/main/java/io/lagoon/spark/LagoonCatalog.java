package io.lagoon.spark;

import io.lagoon.core.catalog.CatalogException;
import io.lagoon.core.catalog.FileSystemCatalog;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.SparkTypes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.IdentityTransform;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The Spark catalog over a warehouse folder of Paimon-format tables:
 * {@code spark.sql.catalog.lake=io.lagoon.spark.LagoonCatalog},
 * {@code spark.sql.catalog.lake.warehouse=<path or URI>}.
 */
public class LagoonCatalog implements TableCatalog, SupportsNamespaces {
  /** Properties Spark passes that describe the table rather than configure it. */
  private static final Set<String> RESERVED = Set.of(
      TableCatalog.PROP_COMMENT, TableCatalog.PROP_PROVIDER, TableCatalog.PROP_OWNER,
      TableCatalog.PROP_LOCATION, TableCatalog.PROP_EXTERNAL, TableCatalog.PROP_IS_MANAGED_LOCATION, "path");

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
    this.catalog = new FileSystemCatalog(new FileIO(conf), new Path(warehouse));
    catalog.checkReachable();
  }

  @Override
  public String name() {
    return name;
  }

  public FileSystemCatalog core() {
    return catalog;
  }

  // ---- namespaces ----

  @Override
  public String[][] listNamespaces() {
    try {
      List<String> dbs = catalog.listDatabases();
      String[][] out = new String[dbs.size()][];
      for (int i = 0; i < out.length; i++) out[i] = new String[] {dbs.get(i)};
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
    if (namespace.length == 0) return listNamespaces();
    if (!namespaceExists(namespace)) throw new NoSuchNamespaceException(namespace);
    return new String[0][];
  }

  @Override
  public boolean namespaceExists(String[] namespace) {
    try {
      return namespace.length == 1 && catalog.databaseExists(namespace[0]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(String[] namespace) throws NoSuchNamespaceException {
    if (!namespaceExists(namespace)) throw new NoSuchNamespaceException(namespace);
    Map<String, String> md = new LinkedHashMap<>();
    md.put("location", catalog.databaseDir(namespace[0]).toString());
    return md;
  }

  @Override
  public void createNamespace(String[] namespace, Map<String, String> metadata) throws NamespaceAlreadyExistsException {
    String db = database(namespace);
    try {
      catalog.createDatabase(db);
    } catch (CatalogException e) {
      if (e.kind() == CatalogException.Kind.DATABASE_EXISTS) throw new NamespaceAlreadyExistsException(namespace);
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void alterNamespace(String[] namespace, NamespaceChange... changes) {
    throw new UnsupportedOperationException("Lagoon namespaces have no properties to alter");
  }

  @Override
  public boolean dropNamespace(String[] namespace, boolean cascade)
      throws NoSuchNamespaceException, NonEmptyNamespaceException {
    if (!namespaceExists(namespace)) throw new NoSuchNamespaceException(namespace);
    try {
      catalog.dropDatabase(namespace[0], cascade);
      return true;
    } catch (CatalogException e) {
      if (e.kind() == CatalogException.Kind.DATABASE_NOT_EMPTY) throw new NonEmptyNamespaceException(namespace);
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---- tables ----

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    if (!namespaceExists(namespace)) throw new NoSuchNamespaceException(namespace);
    try {
      List<String> tables = catalog.listTables(namespace[0]);
      Identifier[] out = new Identifier[tables.size()];
      for (int i = 0; i < out.length; i++) out[i] = Identifier.of(namespace, tables.get(i));
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    if (ident.namespace().length != 1) throw new NoSuchTableException(ident);
    try {
      return new LagoonTable(catalog.loadTable(coreId(ident)));
    } catch (CatalogException e) {
      throw new NoSuchTableException(ident);
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
  }

  @Override
  public Table createTable(Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    io.lagoon.core.catalog.Identifier id = coreId(ident);
    if (!namespaceExists(ident.namespace())) throw new NoSuchNamespaceException(ident.namespace());
    List<String> partitionKeys = new ArrayList<>();
    for (Transform t : partitions) {
      if (!(t instanceof IdentityTransform)) {
        throw new UnsupportedOperationException("Unsupported partition transform " + t.describe()
            + ": Lagoon tables are partitioned by plain columns, e.g. PARTITIONED BY (dt)");
      }
      partitionKeys.add(((IdentityTransform) t).ref().fieldNames()[0]);
    }
    Map<String, String> options = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : properties.entrySet()) {
      if (!RESERVED.contains(e.getKey())) options.put(e.getKey(), e.getValue());
    }
    if (properties.containsKey(TableCatalog.PROP_LOCATION)) {
      throw new UnsupportedOperationException("Lagoon tables live in the catalog's warehouse; LOCATION is not supported");
    }
    List<String> primaryKeys = splitList(options.remove("primary-key"));
    String partitionOption = options.remove("partition");
    if (partitionKeys.isEmpty() && partitionOption != null) partitionKeys = splitList(partitionOption);
    if (!primaryKeys.isEmpty()) {
      throw new UnsupportedOperationException("Primary-key tables ('primary-key'='" + String.join(",", primaryKeys)
          + "') are not supported by this Lagoon version yet; create an append table (no 'primary-key')");
    }
    AtomicInteger ids = new AtomicInteger(-1);
    List<DataField> fields = SparkTypes.fromSpark(schema, ids);
    try {
      FileStoreTable t = catalog.createTable(id, fields, ids.get(), partitionKeys, primaryKeys, options,
          properties.get(TableCatalog.PROP_COMMENT));
      return new LagoonTable(t);
    } catch (CatalogException e) {
      if (e.kind() == CatalogException.Kind.TABLE_EXISTS) throw new TableAlreadyExistsException(ident);
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Table alterTable(Identifier ident, TableChange... changes) throws NoSuchTableException {
    LagoonTable current = (LagoonTable) loadTable(ident);
    Map<String, String> options = new LinkedHashMap<>(current.core().schema().options());
    String comment = current.core().schema().comment();
    for (TableChange c : changes) {
      if (c instanceof TableChange.SetProperty) {
        TableChange.SetProperty s = (TableChange.SetProperty) c;
        if (TableCatalog.PROP_COMMENT.equals(s.property())) comment = s.value();
        else if (RESERVED.contains(s.property())) throw reservedProperty(s.property());
        else if (isImmutable(s.property())) throw immutableProperty(s.property());
        else options.put(s.property(), s.value());
      } else if (c instanceof TableChange.RemoveProperty) {
        TableChange.RemoveProperty r = (TableChange.RemoveProperty) c;
        if (TableCatalog.PROP_COMMENT.equals(r.property())) comment = null;
        else if (isImmutable(r.property())) throw immutableProperty(r.property());
        else options.remove(r.property());
      } else {
        throw new UnsupportedOperationException("Unsupported ALTER TABLE change " + c.getClass().getSimpleName()
            + " on " + ident + ": this Lagoon version alters table properties and comments only");
      }
    }
    try {
      return new LagoonTable(catalog.alterTable(coreId(ident), options, comment));
    } catch (CatalogException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean isImmutable(String key) {
    return key.equals("primary-key") || key.equals("partition") || key.equals("bucket") || key.equals("bucket-key")
        || key.equals("merge-engine");
  }

  private static IllegalArgumentException immutableProperty(String key) {
    return new IllegalArgumentException("Table property '" + key + "' cannot be changed after the table is created");
  }

  private static IllegalArgumentException reservedProperty(String key) {
    return new IllegalArgumentException("Table property '" + key + "' is reserved and cannot be set");
  }

  @Override
  public boolean dropTable(Identifier ident) {
    try {
      catalog.dropTable(coreId(ident));
      return true;
    } catch (CatalogException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void renameTable(Identifier oldIdent, Identifier newIdent) throws NoSuchTableException, TableAlreadyExistsException {
    Identifier target = newIdent.namespace().length == 0 ? Identifier.of(oldIdent.namespace(), newIdent.name()) : newIdent;
    try {
      catalog.renameTable(coreId(oldIdent), coreId(target));
    } catch (CatalogException e) {
      if (e.kind() == CatalogException.Kind.NO_SUCH_TABLE) throw new NoSuchTableException(oldIdent);
      if (e.kind() == CatalogException.Kind.TABLE_EXISTS) throw new TableAlreadyExistsException(target);
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static io.lagoon.core.catalog.Identifier coreId(Identifier ident) {
    return new io.lagoon.core.catalog.Identifier(database(ident.namespace()), ident.name());
  }

  private static String database(String[] namespace) {
    if (namespace.length != 1) {
      throw new IllegalArgumentException("Lagoon namespaces have exactly one level (a database), got "
          + String.join(".", namespace));
    }
    return namespace[0];
  }

  private static List<String> splitList(String s) {
    List<String> out = new ArrayList<>();
    if (s == null) return out;
    for (String p : s.split(",")) if (!p.trim().isEmpty()) out.add(p.trim());
    return out;
  }
}
