package io.lagoon.spark.write;

import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.UncommittedFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.sources.Filter;

/** Driver side of a write: hands out writers, then commits every task's files in one snapshot. */
public class LagoonBatchWrite implements BatchWrite {
  private final FileStoreTable table;
  private final LagoonWriteBuilder.OverwriteMode mode;
  private final Filter[] overwriteFilters;

  LagoonBatchWrite(FileStoreTable table, LagoonWriteBuilder.OverwriteMode mode, Filter[] overwriteFilters) {
    this.table = table;
    this.mode = mode;
    this.overwriteFilters = overwriteFilters;
  }

  @Override
  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    return new AppendWriterFactory(table);
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    List<ManifestEntry> added = collect(messages);
    try {
      Predicate<InternalRow> overwrite = OverwritePartitions.of(table, mode, overwriteFilters, added);
      if (overwrite == null) table.newAppend().add(added).commit();
      else table.newOverwrite(overwrite).add(added).commit();
    } catch (IOException e) {
      UncommittedFiles.deleteUnreferenced(table, added);
      throw new UncheckedIOException("Commit to " + table.fullName() + " failed: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      UncommittedFiles.deleteUnreferenced(table, added);
      throw e;
    }
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    UncommittedFiles.deleteData(table, collect(messages));
  }

  private static List<ManifestEntry> collect(WriterCommitMessage[] messages) {
    List<ManifestEntry> out = new ArrayList<>();
    for (WriterCommitMessage m : messages) {
      if (m instanceof LagoonCommitMessage) out.addAll(((LagoonCommitMessage) m).files());
    }
    return out;
  }
}
