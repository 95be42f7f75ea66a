package io.lagoon.spark.write;

import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.FileStoreTable;
import java.util.List;
import java.util.function.Predicate;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.sources.Filter;

/** Driver side of a write: hands out writers, then commits every task's files in one snapshot. */
public class LagoonBatchWrite implements BatchWrite, LagoonStreamingWrite.BatchCommit {
  private final FileStoreTable table;
  private final LagoonWriteBuilder.OverwriteMode mode;
  private final Filter[] overwriteFilters;
  private final WriteCommit commits;

  LagoonBatchWrite(FileStoreTable table, LagoonWriteBuilder.OverwriteMode mode, Filter[] overwriteFilters) {
    this.table = table;
    this.mode = mode;
    this.overwriteFilters = overwriteFilters;
    this.commits = new WriteCommit(table);
  }

  @Override
  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    return commits.started(new AppendWriterFactory(table, false, BaseSnapshot.latest(table)));
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    commitThrough(messages, table);
  }

  @Override
  public void commitThrough(WriterCommitMessage[] messages, FileStoreTable committing) {
    List<ManifestEntry> added = WriteCommit.files(messages);
    commits.run(added, () -> {
      Predicate<InternalRow> overwrite = OverwritePartitions.of(table, mode, overwriteFilters,
          OverwritePartitions.partitionsOf(added));
      if (overwrite == null) committing.newAppend().add(added).commit();
      else committing.newOverwrite(overwrite).add(added).commit();
    });
    io.lagoon.spark.compact.AppendAutoCompaction.afterWrite(table, added);
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    commits.abort(WriteCommit.files(messages));
  }
}
