package io.lagoon.spark.write;

import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.SparkTypes;
import io.lagoon.spark.read.KeyPruningScan;
import io.lagoon.spark.read.LagoonScanBuilder;
import io.lagoon.spark.read.MetadataColumns;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.DeltaWrite;
import org.apache.spark.sql.connector.write.DeltaWriteBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsDelta;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * DELETE, UPDATE and MERGE on an append table with deletion vectors: rows are identified by
 * {@code (_file, _pos)}; a deleted row's position joins its file's vector, an updated row is
 * deleted there and written anew, an inserted row is written. No data file is rewritten. The
 * target scan can be pruned at run time by the values a MERGE looks for ({@link PrunableTarget}).
 */
public final class AppendDeltaOperation implements SupportsDelta, PrunableTarget {
  private final FileStoreTable table;
  private final Command command;

  public AppendDeltaOperation(FileStoreTable table, Command command) {
    this.table = table;
    this.command = command;
  }

  @Override
  public Command command() {
    return command;
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    return new LagoonScanBuilder(table, SparkTypes.toSpark(table.schema().fields())).withKeyPruning();
  }

  /** A file whose value range of the column holds none of the values looked for has no match. */
  @Override
  public boolean prunesBy(String column) {
    return KeyPruningScan.prunableColumns(table).contains(column);
  }

  @Override
  public NamedReference[] rowId() {
    return new NamedReference[] {Expressions.column(MetadataColumns.FILE), Expressions.column(MetadataColumns.POS)};
  }

  @Override
  public boolean representUpdateAsDeleteAndInsert() {
    return false;
  }

  @Override
  public DeltaWriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new DeltaWriteBuilder() {
      @Override
      public DeltaWrite build() {
        return new AppendDeltaWrite(table, info, command);
      }
    };
  }
}
