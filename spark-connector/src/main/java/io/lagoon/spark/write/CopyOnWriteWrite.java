package io.lagoon.spark.write;

import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.spark.read.LagoonScan;
import java.util.List;
import java.util.function.Supplier;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * The write of a copy-on-write rewrite: the rows that stay are written like an INSERT's, and the
 * commit is one row delta that removes the files the rewrite scan read and adds the new ones.
 */
final class CopyOnWriteWrite extends LagoonWrite {
  private final FileStoreTable table;
  private final Supplier<LagoonScan> scan;

  CopyOnWriteWrite(FileStoreTable table, LogicalWriteInfo info, Supplier<LagoonScan> scan) {
    super(table, info, LagoonWriteBuilder.OverwriteMode.NONE, new org.apache.spark.sql.sources.Filter[0]);
    this.table = table;
    this.scan = scan;
  }

  @Override
  public String description() {
    return "LagoonCopyOnWrite " + table.fullName();
  }

  @Override
  public BatchWrite toBatch() {
    return new BatchWrite() {
      private final WriteCommit commits = new WriteCommit(table);

      @Override
      public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
        return commits.started(new AppendWriterFactory(table, true, BaseSnapshot.latest(table)));
      }

      @Override
      public void commit(WriterCommitMessage[] messages) {
        List<ManifestEntry> added = WriteCommit.files(messages);
        commits.run(added, () -> table.newRowDelta().removeFiles(scan.get().filesRead()).addFiles(added).commit());
      }

      @Override
      public void abort(WriterCommitMessage[] messages) {
        commits.abort(WriteCommit.files(messages));
      }
    };
  }
}
