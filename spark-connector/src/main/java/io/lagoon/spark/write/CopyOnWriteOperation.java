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
  /** A DELETE's or UPDATE's condition its tasks check files against (set by the SQL extensions); null: Spark's group filter. */
  private org.apache.spark.sql.catalyst.expressions.Expression filterInTasks;
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
        .forRewrite(s -> scan = s, filterInTasks);
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
