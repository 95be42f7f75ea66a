package io.lagoon.core.commit;

import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.snapshot.CommitKind;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * One change to a table (append, overwrite, rewrite, row delta, ...), planned by the committer
 * against the latest snapshot on every attempt ({@link FileStoreCommit#commit}). Planning checks
 * that the change still applies to that snapshot and throws {@link CommitConflictException} when
 * it does not; what it writes while planning (index files) is deleted if the attempt loses.
 */
public interface TableOperation {
  CommitKind kind();

  /**
   * @param base the snapshot the attempt commits on top of
   * @param written collects every file the planning writes, deleted if the attempt is not published
   * @return the change, or {@link PlannedChange#nothing()} when there is nothing to commit
   * @throws CommitConflictException when the change no longer applies to {@code base}
   */
  PlannedChange plan(CommitBase base, List<Path> written) throws IOException;

  /**
   * The data files this operation brings that no snapshot references yet (written by tasks before
   * the commit): the committer deletes them when the operation is certainly not committed.
   */
  default List<ManifestEntry> newDataFiles() {
    return List.of();
  }

  /** Index files (names under {@code index/}) written before the commit, deleted like {@link #newDataFiles}. */
  default List<String> newIndexFiles() {
    return List.of();
  }
}
