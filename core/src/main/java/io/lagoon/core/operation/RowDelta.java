package io.lagoon.core.operation;

import io.lagoon.core.commit.CommitBase;
import io.lagoon.core.commit.PlannedChange;
import io.lagoon.core.commit.TableOperation;
import io.lagoon.core.deletionvectors.DeletionVectorMaintainer;
import io.lagoon.core.dynamicbucket.KeyAssignments;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.snapshot.CommitKind;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.TableOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.Path;

/**
 * A row-level change (DELETE, UPDATE, MERGE): new data files, rows of live files deleted by
 * position (deletion vectors on append tables), and files replaced whole (copy-on-write). Each
 * attempt checks that every file the statement read or replaces is still live on the level it
 * read it from; a concurrent compaction or overwrite that removed one makes the change a
 * conflict (its rows must be read again), while rows deleted concurrently from the same files
 * merge into the same vectors. Nothing to change commits nothing.
 */
public final class RowDelta implements TableOperation {
  private final FileStoreTable table;
  private final List<ManifestEntry> added = new ArrayList<>();
  private final List<ManifestEntry> removed = new ArrayList<>();
  private final List<ManifestEntry> read = new ArrayList<>();
  private final Map<String, long[]> positions = new LinkedHashMap<>();
  private boolean exclusiveDeletes;
  /** Primary-key tables: the snapshot the statement read, after which no other commit may write its keys; -1 for none. */
  private long keysReadAt = -1;
  private KeyAssignments keys;
  /** Changelog files of the new records ({@code changelog-producer}={@code input}). */
  private final List<ManifestEntry> changelog = new ArrayList<>();

  public RowDelta(FileStoreTable table) {
    this.table = table;
  }

  public RowDelta addFiles(List<ManifestEntry> files) {
    added.addAll(files);
    return this;
  }

  /** Files the statement replaces whole (their surviving rows are in the added files). */
  public RowDelta removeFiles(List<ManifestEntry> files) {
    removed.addAll(files);
    return this;
  }

  /** Files the statement read to decide what to change: they must still be live when it commits. */
  public RowDelta validateRead(List<ManifestEntry> files) {
    read.addAll(files);
    return this;
  }

  /**
   * Rows to delete, by data file name and row position, through the table's deletion vectors.
   *
   * @throws IllegalArgumentException on a primary-key table (its rows are deleted by key) or a
   *     table without {@code deletion-vectors.enabled}
   */
  public RowDelta deletePositions(Map<String, long[]> byFile) {
    if (byFile.isEmpty()) return this;
    if (table.hasPrimaryKey()) {
      throw new UnsupportedOperationException("Table " + table.fullName() + " has a primary key: its rows are "
          + "deleted by writing retractions, not by position");
    }
    if (!table.options().deletionVectors()) {
      throw new IllegalArgumentException("Table " + table.fullName() + " does not keep deletion vectors: set '"
          + TableOptions.DELETION_VECTORS_ENABLED + "'='true' first");
    }
    for (Map.Entry<String, long[]> e : byFile.entrySet()) {
      long[] had = positions.get(e.getKey());
      if (had == null) {
        positions.put(e.getKey(), e.getValue().clone());
      } else {
        long[] both = java.util.Arrays.copyOf(had, had.length + e.getValue().length);
        System.arraycopy(e.getValue(), 0, both, had.length, e.getValue().length);
        positions.put(e.getKey(), both);
      }
    }
    return this;
  }

  /**
   * The statement writes new versions of the rows it deletes (UPDATE, MERGE): if another commit
   * deleted one of them meanwhile, both versions would survive, so that is a conflict.
   */
  public RowDelta exclusiveDeletes() {
    exclusiveDeletes = true;
    return this;
  }

  /**
   * A primary-key table's statement read its rows at {@code snapshotId}: a commit after it that
   * wrote records which may have the same keys as the added files (their key ranges overlap in a
   * bucket) makes this one a conflict, since it decided on values that were changed meanwhile.
   */
  public RowDelta validateNoConcurrentKeys(long snapshotId) {
    keysReadAt = snapshotId;
    return this;
  }

  /** Changelog files written beside the added files, committed in the same snapshot. */
  public RowDelta addChangelog(List<ManifestEntry> files) {
    changelog.addAll(files);
    return this;
  }

  /** A dynamic-bucket table: the buckets the statement gave its new keys, recorded in the HASH index. */
  public RowDelta assignKeys(KeyAssignments assignments) {
    this.keys = assignments;
    return this;
  }

  public boolean isEmpty() {
    return added.isEmpty() && changelog.isEmpty() && removed.isEmpty() && positions.isEmpty();
  }

  /** @return the new snapshot, or empty when the statement changed nothing */
  public Optional<Snapshot> commit() throws IOException {
    return table.committer().commit(this);
  }

  @Override
  public CommitKind kind() {
    return removed.isEmpty() ? CommitKind.APPEND : CommitKind.OVERWRITE;
  }

  @Override
  public PlannedChange plan(CommitBase base, List<Path> written) throws IOException {
    if (isEmpty()) return PlannedChange.nothing();
    LiveFileCheck.check(table, removed, base.live(), "deletion");
    LiveFileCheck.check(table, read, base.live(), "read");
    if (keysReadAt >= 0) ConcurrentKeys.check(table, keysReadAt, base, added);
    BucketCounts.check(table, base, added);
    List<ManifestEntry> entries = new ArrayList<>();
    Set<String> removedNames = new HashSet<>();
    for (ManifestEntry e : removed) {
      entries.add(e.withKind(FileKind.DELETE));
      removedNames.add(e.file.fileName);
    }
    entries.addAll(added);
    DeletionVectorMaintainer vectors = new DeletionVectorMaintainer(base, written);
    vectors.dropFiles(removedNames);
    vectors.deletePositions(positions, exclusiveDeletes);
    if (keys != null) keys.apply(base, written, null, vectors);
    return PlannedChange.of(entries, vectors.indexManifest()).withChangelog(changelog);
  }

  @Override
  public List<ManifestEntry> newDataFiles() {
    List<ManifestEntry> out = new ArrayList<>(added);
    out.addAll(changelog);
    return out;
  }
}
