package io.lagoon.spark.write;

import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.UncommittedFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * The driver's commit step every batch write shares: run the commit, and if it fails delete the
 * files the tasks wrote that the latest snapshot does not reference (a statement that publishes
 * two snapshots may fail after the first, whose files must stay).
 */
final class WriteCommit {
  private WriteCommit() {}

  interface Commit {
    void run() throws IOException;
  }

  static void run(FileStoreTable table, List<ManifestEntry> written, Commit commit) {
    try {
      commit.run();
    } catch (IOException e) {
      UncommittedFiles.deleteUnreferenced(table, written);
      throw new UncheckedIOException("Commit to " + table.fullName() + " failed: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      UncommittedFiles.deleteUnreferenced(table, written);
      throw e;
    }
  }

  /** The files in the tasks' {@link LagoonCommitMessage}s. */
  static List<ManifestEntry> files(WriterCommitMessage[] messages) {
    List<ManifestEntry> out = new ArrayList<>();
    for (WriterCommitMessage m : messages) {
      if (m instanceof LagoonCommitMessage) out.addAll(((LagoonCommitMessage) m).files());
    }
    return out;
  }
}
