package io.lagoon.spark.write;

import io.lagoon.core.table.FileStoreTable;
import org.apache.spark.sql.connector.write.DeltaBatchWrite;
import org.apache.spark.sql.connector.write.DeltaWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperation;

/** Driver side of a primary-key delta write: writers of retractions, versions and additions, one commit. */
final class PkDeltaBatchWrite extends PkBatchWrite implements DeltaBatchWrite {
  private final RowLevelOperation.Command command;

  PkDeltaBatchWrite(FileStoreTable table, RowLevelOperation.Command command) {
    super(table, LagoonWriteBuilder.OverwriteMode.NONE, new org.apache.spark.sql.sources.Filter[0]);
    this.command = command;
  }

  @Override
  public DeltaWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    return new PkDeltaWriterFactory(table, prepare(), source, command.name());
  }
}
