package io.lagoon.spark.read;

import io.lagoon.core.table.FileStoreTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownLimit;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * Collects what Spark pushes into a scan: filters (used to prune partitions and files and to
 * skip Parquet row groups; Spark still evaluates them on the rows), the columns needed, a limit.
 */
public class LagoonScanBuilder implements ScanBuilder, SupportsPushDownFilters, SupportsPushDownRequiredColumns,
    SupportsPushDownLimit {
  private final FileStoreTable table;
  private final StructType tableSchema;
  private StructType required;
  /** Metadata columns asked for ({@link MetadataColumns}), in the order the scan returns them. */
  private List<String> metadata = List.of();
  private Filter[] pushed = new Filter[0];
  private Integer limit;
  private java.util.function.Consumer<LagoonScan> onBuild = s -> { };

  public LagoonScanBuilder(FileStoreTable table, StructType tableSchema) {
    this.table = table;
    this.tableSchema = tableSchema;
    this.required = tableSchema;
  }

  @Override
  public Filter[] pushFilters(Filter[] filters) {
    List<Filter> usable = new ArrayList<>(Arrays.asList(filters));
    this.pushed = usable.toArray(new Filter[0]);
    // Stats and row groups only prove absence; every filter is re-checked on the rows. On
    // primary-key tables this is also what keeps value filters above the merge.
    return filters;
  }

  @Override
  public Filter[] pushedFilters() {
    return pushed;
  }

  @Override
  public void pruneColumns(StructType requiredSchema) {
    List<org.apache.spark.sql.types.StructField> data = new ArrayList<>();
    List<String> meta = new ArrayList<>();
    for (org.apache.spark.sql.types.StructField f : requiredSchema.fields()) {
      boolean isColumn = Arrays.asList(tableSchema.fieldNames()).contains(f.name());
      if (!isColumn && MetadataColumns.isMetadata(f.name())) meta.add(f.name());
      else data.add(f);
    }
    // The scan returns _file, _pos, _row_before in this order whatever order the query named them in.
    List<String> order = List.of(MetadataColumns.FILE, MetadataColumns.POS, MetadataColumns.ROW_BEFORE);
    meta.sort(java.util.Comparator.comparingInt(order::indexOf));
    this.metadata = meta;
    StructType dataSchema = new StructType(data.toArray(new org.apache.spark.sql.types.StructField[0]));
    // The row as read holds every column, in the table's order.
    if (meta.contains(MetadataColumns.ROW_BEFORE)) dataSchema = tableSchema;
    this.required = table.hasPrimaryKey() ? topLevel(dataSchema) : dataSchema;
  }

  /**
   * The required columns with their full table types: merged rows carry whole columns, so a
   * primary-key scan does not prune inside nested columns (Spark extracts the fields it needs).
   */
  private StructType topLevel(StructType requiredSchema) {
    List<org.apache.spark.sql.types.StructField> out = new ArrayList<>();
    for (org.apache.spark.sql.types.StructField f : requiredSchema.fields()) {
      out.add(tableSchema.fields()[tableSchema.fieldIndex(f.name())]);
    }
    return new StructType(out.toArray(new org.apache.spark.sql.types.StructField[0]));
  }

  @Override
  public boolean pushLimit(int n) {
    this.limit = n;
    return true;
  }

  @Override
  public boolean isPartiallyPushed() {
    return true; // Spark keeps its own LIMIT; we only stop planning files early
  }

  /** Build a {@link KeyPruningScan} (the target of a row-level statement, pruned at run time). */
  private boolean keyPruning;

  public LagoonScanBuilder withKeyPruning() {
    keyPruning = !KeyPruningScan.prunableColumns(table).isEmpty();
    return this;
  }

  /** A MERGE's key column to build a {@link MergeKeysScan} for; null for none. */
  private String mergeKey;

  /** Build a {@link MergeKeysScan}: rows of the key values a MERGE's source holds, given at run time. */
  public LagoonScanBuilder mergeKeys(String key) {
    mergeKey = key;
    return this;
  }

  /** Plan one task per bucket where the table allows it ({@link LagoonScan#planPerBucket}). */
  private boolean perBucket;

  public LagoonScanBuilder perBucket() {
    perBucket = true;
    return this;
  }

  /** The snapshot the scan reads (time travel); null for the latest when it is planned. */
  private io.lagoon.core.snapshot.Snapshot snapshot;

  public LagoonScanBuilder atSnapshot(io.lagoon.core.snapshot.Snapshot s) {
    snapshot = s;
    return this;
  }

  private boolean readOptimized;
  private org.apache.spark.sql.util.CaseInsensitiveStringMap options = org.apache.spark.sql.util.CaseInsensitiveStringMap.empty();

  /** The read options, which a stream of the table reads ({@code scan.mode}, ...). */
  public LagoonScanBuilder options(org.apache.spark.sql.util.CaseInsensitiveStringMap options) {
    this.options = options;
    return this;
  }

  /** Plans only the files that need no merge ({@code t$ro}). */
  public LagoonScanBuilder readOptimized() {
    readOptimized = true;
    return this;
  }

  @Override
  public Scan build() {
    LagoonScan scan;
    if (mergeKey != null && java.util.Arrays.asList(required.fieldNames()).contains(mergeKey)) {
      scan = new MergeKeysScan(table, tableSchema, required, metadata, Arrays.asList(pushed), mergeKey);
    } else if (keyPruning) {
      scan = new KeyPruningScan(table, tableSchema, required, metadata, Arrays.asList(pushed));
    } else {
      scan = new LagoonScan(table, tableSchema, required, metadata, Arrays.asList(pushed), limit);
    }
    scan.atSnapshot(snapshot);
    scan.readOptimized(readOptimized);
    scan.streamOptions(options);
    if (perBucket) scan.planPerBucket();
    onBuild.accept(scan);
    return scan;
  }

  /** Hands the built scan to a row-level operation, which needs to know what it read. */
  public LagoonScanBuilder onBuild(java.util.function.Consumer<LagoonScan> consumer) {
    this.onBuild = consumer;
    return this;
  }

  /**
   * The scan of a copy-on-write rewrite: whole files (filters prune files only), limited at run
   * time to the files that hold matches; {@code built} receives it, as the write needs to know
   * which files it replaces.
   */
  public ScanBuilder forRewrite(java.util.function.Consumer<LagoonScan> built) {
    return forRewrite(built, null, null);
  }

  /**
   * @param condition a condition (deterministic, no subquery) every row with a match satisfies,
   *     for the tasks to find the files with matches themselves ({@link InTaskRewriteScan}) instead
   *     of Spark's runtime group filter: a DELETE's or UPDATE's condition, or the target-only part
   *     of a MERGE's; null to leave that to Spark
   * @param key a MERGE's column (read by {@code condition}) whose source values arrive at run time
   *     ({@link MergeRewriteScan}); null for none
   */
  public ScanBuilder forRewrite(java.util.function.Consumer<LagoonScan> built,
                                org.apache.spark.sql.catalyst.expressions.Expression condition, String key) {
    return new RewriteBuilder(this, built, condition, key);
  }

  private static final class RewriteBuilder implements ScanBuilder, SupportsPushDownFilters,
      SupportsPushDownRequiredColumns {
    private final LagoonScanBuilder b;
    private final java.util.function.Consumer<LagoonScan> built;
    private final org.apache.spark.sql.catalyst.expressions.Expression condition;
    private final String key;

    RewriteBuilder(LagoonScanBuilder b, java.util.function.Consumer<LagoonScan> built,
                   org.apache.spark.sql.catalyst.expressions.Expression condition, String key) {
      this.b = b;
      this.built = built;
      this.condition = condition;
      this.key = key;
    }

    @Override
    public Filter[] pushFilters(Filter[] filters) {
      return b.pushFilters(filters);
    }

    @Override
    public Filter[] pushedFilters() {
      return b.pushedFilters();
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
      b.pruneColumns(requiredSchema);
    }

    @Override
    public Scan build() {
      List<org.apache.spark.sql.catalyst.expressions.Attribute> columns = condition != null && !b.table.hasPrimaryKey()
          ? FileMatchProbe.columnsOf(b.tableSchema, condition) : null;
      LagoonScan scan;
      if (columns != null && key != null) {
        scan = new MergeRewriteScan(b.table, b.tableSchema, b.required, b.metadata, Arrays.asList(b.pushed), condition,
            columns, key);
      } else if (columns != null) {
        scan = new InTaskRewriteScan(b.table, b.tableSchema, b.required, b.metadata, Arrays.asList(b.pushed), condition,
            columns, null);
      } else {
        scan = new RewriteScan(b.table, b.tableSchema, b.required, b.metadata, Arrays.asList(b.pushed));
      }
      scan.atSnapshot(b.snapshot);
      built.accept(scan);
      return scan;
    }
  }
}
