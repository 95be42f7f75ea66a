package io.lagoon.core.operation;

import io.lagoon.core.commit.CommitBase;
import io.lagoon.core.commit.PlannedChange;
import io.lagoon.core.commit.TableOperation;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.snapshot.CommitKind;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/** Adds new data files ({@link CommitKind#APPEND}); nothing to validate, so it never conflicts. */
public final class AppendFiles implements TableOperation {
  private final FileStoreTable table;
  private final List<ManifestEntry> added = new ArrayList<>();

  public AppendFiles(FileStoreTable table) {
    this.table = table;
  }

  public AppendFiles add(List<ManifestEntry> files) {
    added.addAll(files);
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
  public PlannedChange plan(CommitBase base, List<Path> written) {
    return added.isEmpty() ? PlannedChange.nothing() : PlannedChange.of(added, base.indexManifest());
  }

  @Override
  public List<ManifestEntry> newDataFiles() {
    return added;
  }
}
