package io.lagoon.spark.write;

import io.lagoon.core.table.FileStoreTable;
import org.apache.spark.sql.connector.write.DeltaBatchWrite;
import org.apache.spark.sql.connector.write.DeltaWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperation;

/** Driver side of a primary-key delta write: writers of retractions, versions and additions, one commit. */
final class PkDeltaBatchWrite extends PkBatchWrite implements DeltaBatchWrite {
  private final RowLevelOperation.Command command;
  private final java.util.function.LongSupplier readAt;

  PkDeltaBatchWrite(FileStoreTable table, RowLevelOperation.Command command, java.util.function.LongSupplier readAt) {
    super(table, LagoonWriteBuilder.OverwriteMode.NONE, new org.apache.spark.sql.sources.Filter[0]);
    this.command = command;
    this.readAt = readAt;
  }

  /**
   * Commits like an INSERT, validated against what the statement read: a commit since then that
   * wrote its keys is a conflict. Without a known scan (never expected), the write's own base.
   */
  @Override
  void commitResults(java.util.List<io.lagoon.core.mergetree.write.KeyValueWriteResult> results,
                     java.util.function.Predicate<org.apache.spark.sql.catalyst.InternalRow> overwrite)
      throws java.io.IOException {
    long read = readAt.getAsLong();
    io.lagoon.core.mergetree.write.KeyValueCommit.commit(table, results, overwrite, source,
        read >= 0 ? read : baseSnapshotId);
  }

  @Override
  public DeltaWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    long base = prepare();
    return commits.started(new PkDeltaWriterFactory(table, base, source, assigners, command.name()));
  }
}
