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
 * except that new keys of a dynamic-bucket table must not have been given other buckets meanwhile,
 * nor a postponed-bucket partition another bucket count ({@link BucketCounts}), and that the keys
 * a cross-partition write placed must not have been written or moved meanwhile
 * ({@link #validateNoConcurrentKeys}).
 */
public final class AppendFiles implements TableOperation {
  private final FileStoreTable table;
  private final List<ManifestEntry> added = new ArrayList<>();
  private KeyAssignments keys;
  /** Changelog files of the new records ({@code changelog-producer}={@code input}). */
  private final List<ManifestEntry> changelog = new ArrayList<>();
  /** Postponed-bucket rows the added files now hold in real buckets; see {@link #consumePostponed}. */
  private final List<ManifestEntry> consumed = new ArrayList<>();
  private long postponedReadAt = -1;
  private long keysLocatedAt = NOT_CHECKED;
  private static final long NOT_CHECKED = Long.MIN_VALUE;

  public AppendFiles(FileStoreTable table) {
    this.table = table;
  }

  public AppendFiles add(List<ManifestEntry> files) {
    added.addAll(files);
    return this;
  }

  /** Changelog files written beside the added files, committed in the same snapshot. */
  public AppendFiles addChangelog(List<ManifestEntry> files) {
    changelog.addAll(files);
    return this;
  }

  /** A dynamic-bucket table: the buckets the write gave its new keys, recorded in the HASH index. */
  public AppendFiles assignKeys(KeyAssignments assignments) {
    this.keys = assignments;
    return this;
  }

  /**
   * The added files hold the records of these {@code bucket-postpone} files, given buckets: the
   * files leave the table in the same snapshot (an APPEND, as the rows are new to readers, streaming
   * ones included), so their records are never applied twice. They must still be live, and no commit
   * after {@code readAt} may have written keys into the buckets this one writes, since its sequence
   * numbers continue from what the buckets held at {@code readAt}.
   */
  public AppendFiles consumePostponed(List<ManifestEntry> files, long readAt) {
    consumed.addAll(files);
    postponedReadAt = readAt;
    return this;
  }

  /**
   * A cross-partition table's write decided where each key goes (and where to retract it) from
   * where the keys lived at {@code snapshotId} (-1: the table was empty). A commit since that wrote
   * keys the added files may hold, in any partition, or overwrote any, would leave a key live in
   * two partitions: that is a conflict, and nothing is committed.
   */
  public AppendFiles validateNoConcurrentKeys(long snapshotId) {
    keysLocatedAt = snapshotId;
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
    if (added.isEmpty() && changelog.isEmpty() && consumed.isEmpty()) return PlannedChange.nothing();
    BucketCounts.check(table, base, added);
    // Nothing was read for values: records hidden on level 0 were still located.
    if (keysLocatedAt != NOT_CHECKED) ConcurrentKeys.check(table, keysLocatedAt, base, added, false);
    List<ManifestEntry> entries = added;
    if (!consumed.isEmpty()) {
      LiveFileCheck.check(table, consumed, base.live(), "postponed-bucket");
      ConcurrentKeys.check(table, postponedReadAt, base, added, false);
      entries = new ArrayList<>();
      for (ManifestEntry e : consumed) entries.add(e.withKind(io.lagoon.core.manifest.FileKind.DELETE));
      entries.addAll(added);
    }
    if (keys == null || keys.isEmpty()) return PlannedChange.of(entries, base.indexManifest()).withChangelog(changelog);
    DeletionVectorMaintainer index = new DeletionVectorMaintainer(base, written);
    keys.apply(base, written, null, index);
    return PlannedChange.of(entries, index.indexManifest()).withChangelog(changelog);
  }

  @Override
  public List<ManifestEntry> newDataFiles() {
    List<ManifestEntry> out = new ArrayList<>(added);
    out.addAll(changelog);
    return out;
  }
}
