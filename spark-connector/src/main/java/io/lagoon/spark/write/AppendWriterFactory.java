package io.lagoon.spark.write;

import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.write.AppendTableWriter;
import java.io.IOException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/** Creates the per-task writers of an append table. */
public class AppendWriterFactory implements DataWriterFactory {
  private final FileStoreTable table;

  AppendWriterFactory(FileStoreTable table) {
    this.table = table;
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
    AppendTableWriter writer = new AppendTableWriter(table);
    return new DataWriter<InternalRow>() {
      @Override
      public void write(InternalRow row) throws IOException {
        writer.write(row);
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
