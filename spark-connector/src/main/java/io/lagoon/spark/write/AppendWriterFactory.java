package io.lagoon.spark.write;

import io.lagoon.core.mergetree.ProjectedRow;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.SparkTypes;
import io.lagoon.core.write.AppendTableWriter;
import java.io.IOException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.DataType;

/** Creates the per-task writers of an append table. */
public class AppendWriterFactory implements DataWriterFactory {
  private final FileStoreTable table;
  /** Whether rows carry metadata columns after the table's (a rewrite's input does, in Spark 3.5). */
  private final boolean trailingMetadata;

  /** The snapshot the write starts from: a fixed-bucket table numbers rows after it. */
  private final long baseSnapshotId;

  AppendWriterFactory(FileStoreTable table, boolean trailingMetadata, long baseSnapshotId) {
    this.table = table;
    this.trailingMetadata = trailingMetadata;
    this.baseSnapshotId = baseSnapshotId;
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
    AppendTableWriter writer = new AppendTableWriter(table, baseSnapshotId);
    int arity = table.schema().fields().size();
    int[] columns = new int[arity];
    DataType[] types = new DataType[arity];
    for (int i = 0; i < arity; i++) {
      columns[i] = i;
      types[i] = SparkTypes.toSpark(table.schema().fields().get(i).type());
    }
    ProjectedRow tableColumns = trailingMetadata ? new ProjectedRow(columns, types) : null;
    return new DataWriter<InternalRow>() {
      @Override
      public void write(InternalRow row) throws IOException {
        if (tableColumns == null || row.numFields() == arity) {
          writer.write(row);
        } else {
          tableColumns.replace(row);
          writer.write(tableColumns);
        }
      }

      @Override
      public WriterCommitMessage commit() throws IOException {
        return new LagoonCommitMessage(writer.finish());
      }

      @Override
      public void abort() {
        writer.abort();
      }

      @Override
      public void close() {
        // files are closed by commit or abort
      }
    };
  }
}
