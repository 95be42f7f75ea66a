package io.lagoon.spark.write;

import io.lagoon.core.types.SparkTypes;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.spark.read.LagoonScanBuilder;
import io.lagoon.spark.read.MetadataColumns;
import io.lagoon.spark.read.LagoonScan;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperation;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * DELETE, UPDATE and MERGE on an append table without deletion vectors: copy-on-write of the
 * files that hold matching rows. Spark finds those files at run time, reads them whole through a
 * {@link io.lagoon.spark.read.RewriteScan} and writes back every row that stays, changed or not; the commit replaces
 * exactly the files read (they must still be live) with the files written.
 */
public final class CopyOnWriteOperation implements RowLevelOperation {
  private final FileStoreTable table;
  private final Command command;
  private LagoonScan scan;
  /**
   * What every row with a match satisfies, which the tasks check files against (set by the SQL
   * extensions): a DELETE's or UPDATE's condition, a MERGE's target-only part; null: Spark's group filter.
   */
  private org.apache.spark.sql.catalyst.expressions.Expression filterInTasks;
  /** A MERGE's target column whose source values the scan takes at run time; null for none. */
  private String filterKey;
  /** The snapshot the rewrite reads when a plan rule fixed it (null: the latest when planned). */
  private Snapshot readAt;

  public CopyOnWriteOperation(FileStoreTable table, Command command) {
    this.table = table;
    this.command = command;
  }

  @Override
  public Command command() {
    return command;
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    return new LagoonScanBuilder(table, SparkTypes.toSpark(table.schema().fields())).atSnapshot(readAt)
        .forRewrite(s -> scan = s, filterInTasks, filterKey);
  }

  /**
   * The statement's condition, deterministic and without subqueries (the SQL extensions check
   * that, {@code ReplaceData} at hand): its tasks tell the files with matches themselves
   * ({@link io.lagoon.spark.read.InTaskRewriteScan}), with no group-filter job first.
   */
  public void filterInTasks(org.apache.spark.sql.catalyst.expressions.Expression condition) {
    if (command == Command.DELETE || command == Command.UPDATE) filterInTasks = condition;
  }

  /**
   * A MERGE whose tasks find the files with matches themselves: a row can only match when it
   * satisfies {@code condition} (the target-only part of the MERGE condition, with {@code key IS
   * NOT NULL}) and its {@code key} is among the source's values, which the scan gets from a runtime
   * filter ({@link io.lagoon.spark.read.MergeRewriteScan}). Returns false, changing nothing, when
   * the tasks cannot check that (a metadata or CHAR/VARCHAR column, a key type without exact
   * equality); the caller then leaves Spark's group filter in place.
   */
  public boolean filterMergeInTasks(org.apache.spark.sql.catalyst.expressions.Expression condition, String key) {
    if (command != Command.MERGE) return false;
    StructType columns = SparkTypes.toSpark(table.schema().fields());
    java.util.List<org.apache.spark.sql.catalyst.expressions.Attribute> read =
        io.lagoon.spark.read.InTaskRewriteScan.checkedColumns(columns, condition);
    if (read == null || read.stream().noneMatch(a -> a.name().equals(key))) return false;
    if (!io.lagoon.spark.read.InTaskRewriteScan.keyTypeSupported(columns.apply(key).dataType())) return false;
    filterInTasks = condition;
    filterKey = key;
    return true;
  }

  /**
   * Reads the files to rewrite as of this snapshot: a plan that also reads the table elsewhere
   * (the MERGE plan of Lagoon's SQL extensions) needs both reads to see the same files.
   */
  public void readAt(Snapshot snapshot) {
    this.readAt = snapshot;
  }

  public FileStoreTable table() {
    return table;
  }

  /** {@code _file}: what Spark's runtime filter selects the files to rewrite by. */
  @Override
  public NamedReference[] requiredMetadataAttributes() {
    return new NamedReference[] {Expressions.column(MetadataColumns.FILE)};
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new WriteBuilder() {
      @Override
      public org.apache.spark.sql.connector.write.Write build() {
        return new CopyOnWriteWrite(table, info, () -> {
          if (scan == null) throw new IllegalStateException("The rewrite of " + table.fullName() + " has no scan");
          return scan;
        });
      }
    };
  }
}
