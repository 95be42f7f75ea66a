package io.lagoon.core.operation;

import io.lagoon.core.commit.CommitBase;
import io.lagoon.core.commit.PlannedChange;
import io.lagoon.core.commit.TableOperation;
import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.deletionvectors.DeletionVectorMaintainer;
import io.lagoon.core.dynamicbucket.KeyAssignments;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.snapshot.CommitKind;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.PaimonType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Replaces every live file of the partitions a predicate selects with new files
 * ({@link CommitKind#OVERWRITE}: INSERT OVERWRITE, TRUNCATE): the files to remove are whatever is
 * live there in the snapshot the attempt commits on, and their deletion vectors and HASH index
 * (dynamic buckets) go with them.
 */
public final class OverwriteFiles implements TableOperation {
  private final FileStoreTable table;
  private final Predicate<InternalRow> partitions;
  private final List<ManifestEntry> added = new ArrayList<>();
  private boolean skipWhenNothingReplaced;
  private KeyAssignments keys;
  private long keysLocatedAt = NOT_CHECKED;
  private static final long NOT_CHECKED = Long.MIN_VALUE;

  /** @param partitions tests a partition row (partition columns in order) */
  public OverwriteFiles(FileStoreTable table, Predicate<InternalRow> partitions) {
    this.table = table;
    this.partitions = partitions;
  }

  public OverwriteFiles add(List<ManifestEntry> files) {
    added.addAll(files);
    return this;
  }

  /** A DELETE of whole partitions: when nothing is live there and nothing is added, commit nothing. */
  public OverwriteFiles skipWhenNothingReplaced() {
    skipWhenNothingReplaced = true;
    return this;
  }

  /** A dynamic-bucket table: the buckets the write gave its keys (all new: the partitions start afresh). */
  public OverwriteFiles assignKeys(KeyAssignments assignments) {
    this.keys = assignments;
    return this;
  }

  /**
   * An overwrite of some partitions of a cross-partition table, whose writers found where the new
   * rows' keys lived on snapshot {@code snapshotId} (-1: an empty table) and retracted those that
   * lived in partitions left alone: a commit since then that wrote any of those keys, anywhere, or
   * overwrote anything, is a conflict (else a key could end up live twice).
   */
  public OverwriteFiles validateNoConcurrentKeys(long snapshotId) {
    keysLocatedAt = snapshotId;
    return this;
  }

  /** @return the new snapshot; empty only with {@link #skipWhenNothingReplaced} */
  public Optional<Snapshot> commit() throws IOException {
    return table.committer().commit(this);
  }

  @Override
  public CommitKind kind() {
    return CommitKind.OVERWRITE;
  }

  @Override
  public PlannedChange plan(CommitBase base, List<Path> written) throws IOException {
    List<PaimonType> partTypes = table.schema().partitionTypes();
    Predicate<byte[]> replaced = p -> partitions.test(BinaryRows.deserialize(p, partTypes));
    List<ManifestEntry> entries = new ArrayList<>();
    for (ManifestEntry e : base.live()) if (replaced.test(e.partition)) entries.add(e.withKind(FileKind.DELETE));
    if (skipWhenNothingReplaced && entries.isEmpty() && added.isEmpty()) return PlannedChange.nothing();
    if (keysLocatedAt != NOT_CHECKED) ConcurrentKeys.check(table, keysLocatedAt, base, added, false);
    entries.addAll(added);
    DeletionVectorMaintainer vectors = new DeletionVectorMaintainer(base, written);
    vectors.dropPartitions(replaced);
    // A replaced partition's key-to-bucket index goes with its files (its keys are gone).
    (keys == null ? new KeyAssignments(-1) : keys).apply(base, written, replaced, vectors);
    return PlannedChange.of(entries, vectors.indexManifest());
  }

  @Override
  public List<ManifestEntry> newDataFiles() {
    return added;
  }
}
