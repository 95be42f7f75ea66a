package io.lagoon.spark.write;

import io.lagoon.core.commit.CommitIdentity;
import io.lagoon.core.table.FileStoreTable;
import java.util.function.Supplier;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.connector.write.streaming.StreamingDataWriterFactory;
import org.apache.spark.sql.connector.write.streaming.StreamingWrite;

/**
 * A streaming query's writes into a table (append output mode): each micro-batch is a batch write
 * of its own, committed with the query's stable id as commit user and the batch id as commit
 * identifier, so a batch Spark replays after a restart (written, but its commit not recorded in
 * the checkpoint) finds its rows committed already and adds nothing.
 */
final class LagoonStreamingWrite implements StreamingWrite {
  /** A batch write whose commit can go through another copy of the table (one with a commit identity). */
  interface BatchCommit extends org.apache.spark.sql.connector.write.BatchWrite {
    void commitThrough(WriterCommitMessage[] messages, FileStoreTable committing);
  }

  private final FileStoreTable table;
  private final String queryId;
  private final Supplier<BatchCommit> batches;
  /** The write of the batch Spark planned last: its commit or abort comes next. */
  private BatchCommit current;

  LagoonStreamingWrite(FileStoreTable table, String queryId, Supplier<BatchCommit> batches) {
    if (queryId == null || queryId.isBlank()) {
      throw new IllegalArgumentException("A streaming write to " + table.fullName() + " needs the query's id");
    }
    this.table = table;
    this.queryId = queryId;
    this.batches = batches;
  }

  @Override
  public synchronized StreamingDataWriterFactory createStreamingWriterFactory(PhysicalWriteInfo info) {
    current = batches.get();
    return new Writers(current.createBatchWriterFactory(info));
  }

  @Override
  public synchronized void commit(long epochId, WriterCommitMessage[] messages) {
    current.commitThrough(messages, table.withCommitIdentity(new CommitIdentity("lagoon-stream-" + queryId, epochId)));
  }

  @Override
  public synchronized void abort(long epochId, WriterCommitMessage[] messages) {
    if (current != null) current.abort(messages);
  }

  /** The batch's writers, whatever epoch Spark names. */
  private static final class Writers implements StreamingDataWriterFactory {
    private final DataWriterFactory batch;

    Writers(DataWriterFactory batch) {
      this.batch = batch;
    }

    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId, long epochId) {
      return batch.createWriter(partitionId, taskId);
    }
  }
}
