package io.lagoon.spark.write;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.write.AppendTableWriter;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DeltaBatchWrite;
import org.apache.spark.sql.connector.write.DeltaWrite;
import org.apache.spark.sql.connector.write.DeltaWriter;
import org.apache.spark.sql.connector.write.DeltaWriterFactory;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperation;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * The write of a row-level statement on an append table with deletion vectors: tasks collect the
 * deleted positions per data file and write new rows like an INSERT; the driver commits one row
 * delta with every task's positions and files.
 */
final class AppendDeltaWrite extends LagoonWrite implements DeltaWrite {
  private final FileStoreTable table;
  private final RowLevelOperation.Command command;

  AppendDeltaWrite(FileStoreTable table, LogicalWriteInfo info, RowLevelOperation.Command command) {
    super(table, info, LagoonWriteBuilder.OverwriteMode.NONE, new org.apache.spark.sql.sources.Filter[0]);
    this.table = table;
    this.command = command;
  }

  @Override
  public String description() {
    return "LagoonDeletionVectorDelta " + command + " " + table.fullName();
  }

  /**
   * Deleted rows arrive as {@code (_file, _pos)} only, so no bucket can be computed for them; the
   * new rows are routed to their buckets by the writer, each task writing its own files.
   */
  @Override
  public org.apache.spark.sql.connector.distributions.Distribution requiredDistribution() {
    return org.apache.spark.sql.connector.distributions.Distributions.unspecified();
  }

  @Override
  public int requiredNumPartitions() {
    return 0;
  }

  /** A DELETE writes no rows, and its input has no data columns to sort by. */
  @Override
  public org.apache.spark.sql.connector.expressions.SortOrder[] requiredOrdering() {
    return command == RowLevelOperation.Command.DELETE ? new org.apache.spark.sql.connector.expressions.SortOrder[0]
        : super.requiredOrdering();
  }

  @Override
  public DeltaBatchWrite toBatch() {
    return new DeltaBatchWrite() {
      private final WriteCommit commits = new WriteCommit(table);

      @Override
      public DeltaWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
        return commits.started(new Factory(table, BaseSnapshot.latest(table)));
      }

      @Override
      public void commit(WriterCommitMessage[] messages) {
        List<ManifestEntry> added = new ArrayList<>();
        io.lagoon.core.operation.RowDelta delta = table.newRowDelta();
        for (WriterCommitMessage m : messages) {
          if (!(m instanceof Message)) continue;
          added.addAll(((Message) m).files);
          delta.deletePositions(((Message) m).positions); // positions of one file from several tasks add up
        }
        // An UPDATE or MERGE writes new versions of what it deletes: two of them must not both win.
        if (command != RowLevelOperation.Command.DELETE) delta.exclusiveDeletes();
        commits.run(added, () -> delta.addFiles(added).commit());
      }

      @Override
      public void abort(WriterCommitMessage[] messages) {
        List<ManifestEntry> written = new ArrayList<>();
        for (WriterCommitMessage m : messages) if (m instanceof Message) written.addAll(((Message) m).files);
        commits.abort(written);
      }
    };
  }

  /** One task's new files and deleted positions (data file name to positions). */
  // Java serialization also where Spark serializes with Kryo, which cannot rebuild records, immutable
  // lists or transient state.
  @DefaultSerializer(JavaSerializer.class)
  static final class Message implements WriterCommitMessage {
    final List<ManifestEntry> files;
    final Map<String, long[]> positions;

    Message(List<ManifestEntry> files, Map<String, long[]> positions) {
      this.files = List.copyOf(files);
      this.positions = positions;
    }
  }

  private static final class Factory implements DeltaWriterFactory, Serializable {
    private final FileStoreTable table;
    private final long baseSnapshotId;

    Factory(FileStoreTable table, long baseSnapshotId) {
      this.table = table;
      this.baseSnapshotId = baseSnapshotId;
    }

    @Override
    public DeltaWriter<InternalRow> createWriter(int partitionId, long taskId) {
      AppendTableWriter writer = new AppendTableWriter(table, baseSnapshotId);
      Map<String, PositionList> deleted = new HashMap<>();
      return new DeltaWriter<InternalRow>() {
        @Override
        public void delete(InternalRow metadata, InternalRow id) {
          // id = (_file, _pos); vectors are keyed by the data file's name
          String file = new Path(id.getUTF8String(0).toString()).getName();
          deleted.computeIfAbsent(file, f -> new PositionList()).add(id.getLong(1));
        }

        @Override
        public void update(InternalRow metadata, InternalRow id, InternalRow row) throws IOException {
          delete(metadata, id);
          writer.write(row);
        }

        @Override
        public void insert(InternalRow row) throws IOException {
          writer.write(row);
        }

        @Override
        public WriterCommitMessage commit() throws IOException {
          Map<String, long[]> positions = new HashMap<>();
          for (Map.Entry<String, PositionList> e : deleted.entrySet()) positions.put(e.getKey(), e.getValue().toArray());
          return new Message(writer.finish(), positions);
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

  /** A growing array of row positions. */
  private static final class PositionList {
    private long[] values = new long[16];
    private int size;

    void add(long v) {
      if (size == values.length) values = java.util.Arrays.copyOf(values, size * 2);
      values[size++] = v;
    }

    long[] toArray() {
      return java.util.Arrays.copyOf(values, size);
    }
  }
}
