package io.lagoon.spark.write;

import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.dynamicbucket.AssignerPlan;
import io.lagoon.core.mergetree.write.KeyBuckets;
import io.lagoon.core.mergetree.write.KeyValueTableWriter;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/** Creates the per-task writers of a primary-key table; each task owns the buckets Spark clustered to it. */
final class PkWriterFactory implements DataWriterFactory {
  private final FileStoreTable table;
  private final long baseSnapshotId;
  private final KeyValueSource source;
  private final boolean mergeUpsert;
  private final AssignerPlan assigners;
  private final boolean overwrite;
  /** Whether the writers compact the buckets they write (else {@code source} only locates keys). */
  private final boolean compacts;

  PkWriterFactory(FileStoreTable table, long baseSnapshotId, KeyValueSource source, boolean compacts,
                  AssignerPlan assigners, boolean mergeUpsert, boolean overwrite) {
    this.compacts = compacts;
    this.overwrite = overwrite;
    this.table = table;
    this.assigners = assigners;
    this.baseSnapshotId = baseSnapshotId;
    this.source = source;
    this.mergeUpsert = mergeUpsert;
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
    KeyValueTableWriter writer = new KeyValueTableWriter(table, baseSnapshotId, compacts ? source : null, false,
        assigners == null ? null : KeyBuckets.of(assigners, source));
    if (mergeUpsert) writer.requireUniqueKeys("MERGE INTO " + table.fullName());
    if (overwrite) writer.withoutChangelog();
    return new DataWriter<InternalRow>() {
      @Override
      public void write(InternalRow row) throws IOException {
        writer.write(row);
      }

      @Override
      public WriterCommitMessage commit() throws IOException {
        return new PkCommitMessage(writer.finish());
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
