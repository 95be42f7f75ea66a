package io.lagoon.spark;

import io.lagoon.core.catalog.PrimaryKeyTableRules;
import io.lagoon.core.mergetree.write.KeyValueCommit;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.TableOptions;
import io.lagoon.core.types.SparkTypes;
import io.lagoon.spark.read.LagoonScanBuilder;
import io.lagoon.spark.write.LagoonWriteBuilder;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import io.lagoon.spark.read.MetadataColumns;
import org.apache.spark.sql.connector.catalog.MetadataColumn;
import org.apache.spark.sql.connector.catalog.SupportsMetadataColumns;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.catalog.SupportsDeleteV2;
import org.apache.spark.sql.connector.catalog.SupportsRowLevelOperations;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.write.RowLevelOperationBuilder;
import org.apache.spark.sql.connector.write.RowLevelOperationInfo;
import org.apache.spark.sql.sources.Filter;
import io.lagoon.spark.write.DeletePartitions;
import io.lagoon.spark.write.AppendDeltaOperation;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.spark.read.TimeTravelOptions;
import io.lagoon.spark.write.CopyOnWriteOperation;
import io.lagoon.spark.write.PkDeltaOperation;
import org.apache.spark.sql.connector.write.RowLevelOperation;
import java.util.Arrays;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** A Lagoon table as Spark sees it: schema, partitioning, properties, and its scans and writes. */
public class LagoonTable implements SupportsRead, SupportsWrite, SupportsDeleteV2, SupportsRowLevelOperations,
    SupportsMetadataColumns {
  private final FileStoreTable table;
  /**
   * The snapshot every scan reads (time travel, {@code table} then has that snapshot's schema);
   * null for the latest one at the time each scan is planned.
   */
  private final Snapshot pinned;

  public LagoonTable(FileStoreTable table) {
    this.table = table;
    this.pinned = null;
  }

  private LagoonTable(FileStoreTable table, Snapshot pinned) {
    this.table = table;
    this.pinned = pinned;
  }

  /** Whether this is the read-optimized view {@code t$ro}: files that need no merge, read only. */
  private boolean readOptimized;

  /** {@code t$ro}: the table's files that need no merge (see {@code ScanPlanner.readOptimized}), read only. */
  public static LagoonTable readOptimized(FileStoreTable table) {
    LagoonTable t = new LagoonTable(table);
    t.readOptimized = true;
    return t;
  }

  /** The table as of one snapshot, with that snapshot's schema: a read-only view, writes are refused. */
  public static LagoonTable asOf(FileStoreTable table, Snapshot snapshot) throws java.io.IOException {
    return new LagoonTable(table.asOf(snapshot), snapshot);
  }

  /**
   * This table read as of its latest snapshot, for a statement that reads it more than once and
   * must see one state in every read; itself when it is already fixed (time travel, a view), has
   * no snapshot, or its latest snapshot has another schema than the one the statement was analyzed with.
   */
  public LagoonTable pinnedToLatest() throws java.io.IOException {
    if (pinned != null || readOptimized || mergeKey != null) return this;
    java.util.Optional<Snapshot> latest = table.snapshots().latest();
    if (latest.isEmpty() || latest.get().schemaId != table.schema().id()) return this;
    return new LagoonTable(table, latest.get());
  }

  /** A MERGE's key column whose source values this view's scans take at run time; null for none. */
  private String mergeKey;

  /**
   * The table as of one snapshot, read only, whose scans return only the rows whose {@code key}
   * is one of the values a MERGE's source holds, once Spark's runtime filter gives them
   * ({@link io.lagoon.spark.read.MergeKeysScan}).
   */
  public static LagoonTable mergeKeysAsOf(FileStoreTable table, Snapshot snapshot, String key) throws java.io.IOException {
    LagoonTable t = asOf(table, snapshot);
    t.mergeKey = key;
    return t;
  }

  private void requireWritable() {
    if (readOptimized) {
      throw new UnsupportedOperationException(name() + " is a read-optimized view, read only; write to " + table.fullName());
    }
    if (pinned != null) {
      throw new UnsupportedOperationException(table.fullName() + " is read as of snapshot " + pinned.id
          + " here (time travel); write to the table itself");
    }
  }

  public FileStoreTable core() {
    return table;
  }

  @Override
  public String name() {
    return readOptimized ? table.fullName() + "$ro" : table.fullName();
  }

  /**
   * The schema as declared, CHAR(5) and VARCHAR(10) included: DESCRIBE prints it, and Spark turns
   * CHAR/VARCHAR into STRING with length checks before it plans any query on the table.
   */
  @Override
  public StructType schema() {
    return SparkTypes.toSparkDeclared(table.schema().fields());
  }

  @Override
  public Transform[] partitioning() {
    // Spark parses the name as SQL: quoting keeps a name like `event-day` or `a.b` one column.
    return table.schema().partitionKeys().stream()
        .map(k -> Expressions.identity("`" + k.replace("`", "``") + "`")).toArray(Transform[]::new);
  }

  @Override
  public Map<String, String> properties() {
    Map<String, String> p = new LinkedHashMap<>(table.schema().options());
    if (table.hasPrimaryKey()) {
      p.put("primary-key", String.join(",", table.schema().primaryKeys()));
      // Show the engine that merges rows even when it is the default, so DESCRIBE tells the whole story.
      p.putIfAbsent(TableOptions.MERGE_ENGINE, "deduplicate");
    }
    if (table.schema().comment() != null) p.put("comment", table.schema().comment());
    return p;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_READ, TableCapability.MICRO_BATCH_READ, TableCapability.BATCH_WRITE,
        TableCapability.STREAMING_WRITE, TableCapability.TRUNCATE, TableCapability.OVERWRITE_BY_FILTER,
        TableCapability.OVERWRITE_DYNAMIC);
  }

  /** {@code _file} and {@code _pos}, for {@code SELECT _file, _pos, * FROM t}; {@code _row_before} on primary keys. */
  @Override
  public MetadataColumn[] metadataColumns() {
    return MetadataColumns.all(SparkTypes.toSpark(table.schema().fields()), table.hasPrimaryKey());
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    // Primary-key tables are read by merge-on-read (see LagoonScan); writes still refuse them.
    io.lagoon.spark.read.IncrementalOptions.Range incremental = io.lagoon.spark.read.IncrementalOptions.range(table, options);
    if (incremental != null) {
      if (pinned != null || readOptimized || TimeTravelOptions.snapshot(table, options) != null) {
        throw new IllegalArgumentException("Read of " + name() + " names an incremental range and a snapshot or view; "
            + "give one");
      }
      org.apache.spark.sql.connector.read.Scan scan = io.lagoon.spark.read.IncrementalOptions.scan(table, incremental, false);
      return () -> scan;
    }
    Snapshot snapshot = pinned != null ? pinned : TimeTravelOptions.snapshot(table, options);
    LagoonScanBuilder b = new LagoonScanBuilder(table, SparkTypes.toSpark(table.schema().fields())).atSnapshot(snapshot)
        .options(options);
    if (mergeKey != null) b.mergeKeys(mergeKey);
    return readOptimized ? b.readOptimized() : b;
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    requireWritable();
    if (table.hasPrimaryKey()) PrimaryKeyTableRules.requireWritable(table.fullName(), table.schema());
    return new LagoonWriteBuilder(table, info);
  }

  private void requireAppendTable(String what) {
    if (table.hasPrimaryKey()) {
      throw new UnsupportedOperationException("Table " + table.fullName() + " is a primary-key table; this Lagoon "
          + "version cannot " + what + " primary-key tables yet (they need merge-on-read)");
    }
  }

  /**
   * DELETE, UPDATE and MERGE: a delta write keyed by the primary key on primary-key tables
   * ({@link PkDeltaOperation}), by row position through deletion vectors on append tables that
   * keep them ({@link AppendDeltaOperation}), copy-on-write of the files holding matches on other
   * append tables ({@link CopyOnWriteOperation}).
   */
  @Override
  public RowLevelOperationBuilder newRowLevelOperationBuilder(RowLevelOperationInfo info) {
    requireWritable();
    RowLevelOperation op = table.hasPrimaryKey() ? new PkDeltaOperation(table, info.command())
        : table.options().deletionVectors() ? new AppendDeltaOperation(table, info.command())
        : new CopyOnWriteOperation(table, info.command());
    return () -> op;
  }

  /**
   * A DELETE whose condition is on partition columns only removes whole partitions in metadata,
   * reading no data; Spark asks here first and runs a row-level DELETE otherwise.
   */
  @Override
  public boolean canDeleteWhere(Predicate[] predicates) {
    return DeletePartitions.filters(table, predicates) != null;
  }

  @Override
  public void deleteWhere(Predicate[] predicates) {
    requireWritable();
    Filter[] filters = DeletePartitions.filters(table, predicates);
    if (filters == null) {
      throw new IllegalArgumentException("DELETE on " + table.fullName() + " by " + Arrays.toString(predicates)
          + " does not select whole partitions");
    }
    if (table.hasPrimaryKey()) PrimaryKeyTableRules.requireWritable(table.fullName(), table.schema());
    try {
      table.newOverwrite(DeletePartitions.matcher(table, filters)).skipWhenNothingReplaced().commit();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("Cannot delete from " + table.fullName() + ": " + e.getMessage(), e);
    }
  }

  /** TRUNCATE TABLE: one OVERWRITE snapshot that removes every live file. */
  @Override
  public boolean truncateTable() {
    requireWritable();
    try {
      if (table.hasPrimaryKey()) {
        PrimaryKeyTableRules.requireWritable(table.fullName(), table.schema());
        KeyValueCommit.commit(table, java.util.List.of(), partition -> true);
        return true;
      }
      table.newOverwrite(partition -> true).commit();
      return true;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("Cannot truncate " + table.fullName() + ": " + e.getMessage(), e);
    }
  }
}
