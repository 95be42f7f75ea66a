package io.lagoon.spark.write;

import io.lagoon.core.commit.FileStoreCommit;
import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.ScanPlanner;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.PaimonType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.Path;
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
      FileStoreCommit commit = new FileStoreCommit(table);
      switch (mode) {
        case NONE:
          commit.append(added);
          break;
        case FILTER:
          commit.overwrite(added, PartitionFilters.matcher(overwriteFilters, table.schema().partitionFields()));
          break;
        case DYNAMIC: {
          Set<String> written = new HashSet<>();
          for (ManifestEntry e : added) written.add(Arrays.toString(e.partition));
          List<PaimonType> types = table.schema().partitionTypes();
          commit.overwrite(added, row -> written.contains(Arrays.toString(BinaryRows.serialize(row, types))));
          break;
        }
        default:
          throw new IllegalStateException(mode.name());
      }
    } catch (IOException e) {
      deleteFiles(added);
      throw new UncheckedIOException("Commit to " + table.fullName() + " failed: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      deleteFiles(added);
      throw e;
    }
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    deleteFiles(collect(messages));
  }

  private static List<ManifestEntry> collect(WriterCommitMessage[] messages) {
    List<ManifestEntry> out = new ArrayList<>();
    for (WriterCommitMessage m : messages) {
      if (m instanceof LagoonCommitMessage) out.addAll(((LagoonCommitMessage) m).files());
    }
    return out;
  }

  private void deleteFiles(List<ManifestEntry> files) {
    ScanPlanner paths = new ScanPlanner(table);
    for (ManifestEntry e : files) {
      try {
        table.io().delete(new Path(table.dir(), paths.bucketPath(e.partition, e.bucket) + "/" + e.file.fileName), false);
      } catch (IOException | RuntimeException ignore) {
        // an unreferenced file at worst
      }
    }
  }
}
