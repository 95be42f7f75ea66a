package io.lagoon.core.operation;

import io.lagoon.core.commit.CommitBase;
import io.lagoon.core.commit.PlannedChange;
import io.lagoon.core.commit.TableOperation;
import io.lagoon.core.deletionvectors.DeletionVectorMaintainer;
import io.lagoon.core.dynamicbucket.KeyAssignments;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.snapshot.CommitKind;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * Adds new data files ({@link CommitKind#APPEND}). Nothing to validate, so it never conflicts,
 * except that new keys of a dynamic-bucket table must not have been given other buckets meanwhile.
 */
public final class AppendFiles implements TableOperation {
  private final FileStoreTable table;
  private final List<ManifestEntry> added = new ArrayList<>();
  private KeyAssignments keys;

  public AppendFiles(FileStoreTable table) {
    this.table = table;
  }

  public AppendFiles add(List<ManifestEntry> files) {
    added.addAll(files);
    return this;
  }

  /** A dynamic-bucket table: the buckets the write gave its new keys, recorded in the HASH index. */
  public AppendFiles assignKeys(KeyAssignments assignments) {
    this.keys = assignments;
    return this;
  }

  /** @return the new snapshot, or empty when there was nothing to add */
  public Optional<Snapshot> commit() throws IOException {
    return table.committer().commit(this);
  }

  @Override
  public CommitKind kind() {
    return CommitKind.APPEND;
  }

  @Override
  public PlannedChange plan(CommitBase base, List<Path> written) throws IOException {
    if (added.isEmpty()) return PlannedChange.nothing();
    if (keys == null || keys.isEmpty()) return PlannedChange.of(added, base.indexManifest());
    DeletionVectorMaintainer index = new DeletionVectorMaintainer(base, written);
    keys.apply(base, written, null, index);
    return PlannedChange.of(added, index.indexManifest());
  }

  @Override
  public List<ManifestEntry> newDataFiles() {
    return added;
  }
}
