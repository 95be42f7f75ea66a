package io.lagoon.spark.write;

import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.InflightWrites;
import io.lagoon.core.table.UncommittedFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * The driver's commit step every batch write shares, one per write: run the commit, and if it
 * fails delete the files the tasks wrote that no snapshot can reference. When no snapshot was
 * published since the commit began, that is all of them; otherwise only those no snapshot since
 * then added and the latest does not reference (a statement that publishes two snapshots may fail
 * after the first, whose files must stay even when another commit compacted them away). Spark's abort comes after a failed job (nothing was committed: every file
 * goes) or after the commit threw (cleaned up already: nothing more goes).
 */
final class WriteCommit {
  private final FileStoreTable table;
  /**
   * Keeps orphan removal off this write's files from just before its tasks start until it commits
   * or gives up (null before): taken when Spark asks for the writer factory, after which Spark
   * always ends the write with a commit or an abort.
   */
  private InflightWrites.Marker inflight;
  private boolean attempted;

  WriteCommit(FileStoreTable table) {
    this.table = table;
  }

  /** Marks the write in flight and hands back the tasks' writer factory; called last when creating it. */
  synchronized <T> T started(T writerFactory) {
    if (inflight == null) {
      try {
        inflight = InflightWrites.begin(table);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot write to " + table.fullName() + ": " + e.getMessage(), e);
      }
    }
    return writerFactory;
  }

  private synchronized void finished() {
    if (inflight != null) inflight.close();
  }

  interface Commit {
    void run() throws IOException;
  }

  void run(List<ManifestEntry> written, Commit commit) {
    attempted = true;
    Optional<Long> before = latestId();
    try {
      commit.run();
    } catch (IOException e) {
      cleanUp(written, before);
      throw new UncheckedIOException("Commit to " + table.fullName() + " failed: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      cleanUp(written, before);
      throw e;
    } finally {
      finished();
    }
  }

  /** Spark's abort of the write, with the files of the tasks that finished. */
  void abort(List<ManifestEntry> written) {
    if (!attempted) UncommittedFiles.deleteData(table, written);
    finished();
  }

  private void cleanUp(List<ManifestEntry> written, Optional<Long> before) {
    Optional<Long> now = latestId();
    if (before.isPresent() && before.equals(now)) UncommittedFiles.deleteData(table, written);
    else if (before.isPresent()) UncommittedFiles.deleteUnreferenced(table, written, before.get());
    // else: which snapshots came since is unknown, so any file may be committed: leave them all
  }

  /** The latest snapshot id (empty for none, or when it cannot be found). */
  private Optional<Long> latestId() {
    try {
      return Optional.of(table.snapshots().latestId().orElse(0L));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
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
