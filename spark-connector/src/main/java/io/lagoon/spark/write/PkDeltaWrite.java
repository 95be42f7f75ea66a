package io.lagoon.spark.write;

import io.lagoon.core.table.FileStoreTable;
import org.apache.spark.sql.connector.write.DeltaBatchWrite;
import org.apache.spark.sql.connector.write.DeltaWrite;
import org.apache.spark.sql.connector.write.RowLevelOperation;

/**
 * The write of a row-level statement on a primary-key table: distributed and ordered like an
 * INSERT (by partition and bucket of the key each record is for, so most of a bucket's records
 * land in one task), committed like one (an APPEND of level-0 files, then the compaction).
 */
final class PkDeltaWrite extends PkWrite implements DeltaWrite {
  private final RowLevelOperation.Command command;
  private final java.util.function.LongSupplier readAt;

  PkDeltaWrite(FileStoreTable table, RowLevelOperation.Command command, java.util.function.LongSupplier readAt) {
    super(table, LagoonWriteBuilder.OverwriteMode.NONE, new org.apache.spark.sql.sources.Filter[0]);
    this.command = command;
    this.readAt = readAt;
  }

  @Override
  public String description() {
    return "LagoonPkDelta " + command + " " + table.fullName();
  }

  @Override
  public DeltaBatchWrite toBatch() {
    return new PkDeltaBatchWrite(table, command, readAt);
  }
}
