package io.lagoon.core.operation;

import io.lagoon.core.commit.CommitBase;
import io.lagoon.core.commit.PlannedChange;
import io.lagoon.core.commit.TableOperation;
import io.lagoon.core.deletionvectors.BucketVectorChange;
import io.lagoon.core.deletionvectors.DeletionVectorMaintainer;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.compact.LevelOverlapCheck;
import io.lagoon.core.snapshot.CommitKind;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.Path;

/**
 * Replaces exactly some live files with others holding the same rows (compaction, sorting:
 * {@link CommitKind#COMPACT}). Each attempt checks that every file it removes is still live on the
 * level it was read from, that on a primary-key table no level above 0 ends up with overlapping
 * files ({@link LevelOverlapCheck}), and that the buckets whose deletion vectors it changes are
 * as it saw them; then it swaps those buckets' vectors. A file moved to another level keeps its
 * name, so it appears in both lists; the DELETE entries go first.
 */
public final class RewriteFiles implements TableOperation {
  private final FileStoreTable table;
  private final List<ManifestEntry> removed = new ArrayList<>();
  private final List<ManifestEntry> added = new ArrayList<>();
  private final List<BucketVectorChange> vectors = new ArrayList<>();
  /** Append files rewritten without their deleted rows: file to the vector it had when read ("" for none). */
  private final java.util.Map<String, String> appendVectorsRead = new java.util.TreeMap<>();

  public RewriteFiles(FileStoreTable table) {
    this.table = table;
  }

  /** @param before live entries, as read; @param after their replacement (ADD entries) */
  public RewriteFiles replace(List<ManifestEntry> before, List<ManifestEntry> after) {
    removed.addAll(before);
    added.addAll(after);
    return this;
  }

  /** Deletion-vector changes of the rewritten buckets, prepared with their new index files. */
  public RewriteFiles vectors(List<BucketVectorChange> changes) {
    vectors.addAll(changes);
    return this;
  }

  /**
   * Append files (with deletion vectors on) rewritten without their deleted rows: their vectors
   * go, provided each is still the one read ({@code ""} for a file read without one).
   */
  public RewriteFiles dropAppendVectors(java.util.Map<String, String> vectorRead) {
    appendVectorsRead.putAll(vectorRead);
    return this;
  }

  public List<ManifestEntry> removed() {
    return removed;
  }

  public List<ManifestEntry> added() {
    return added;
  }

  public boolean isEmpty() {
    return removed.isEmpty() && added.isEmpty();
  }

  /** @return the new snapshot, or empty when there was nothing to replace */
  public Optional<Snapshot> commit() throws IOException {
    return table.committer().commit(this);
  }

  @Override
  public CommitKind kind() {
    return CommitKind.COMPACT;
  }

  @Override
  public PlannedChange plan(CommitBase base, List<Path> written) throws IOException {
    if (isEmpty()) return PlannedChange.nothing();
    LiveFileCheck.check(table, removed, base.live(), "deletion");
    List<ManifestEntry> entries = new ArrayList<>();
    for (ManifestEntry e : removed) entries.add(e.withKind(FileKind.DELETE));
    entries.addAll(added);
    if (table.hasPrimaryKey()) LevelOverlapCheck.check(table, base.live(), entries);
    DeletionVectorMaintainer maintainer = new DeletionVectorMaintainer(base, written);
    maintainer.applyCompaction(vectors);
    if (!appendVectorsRead.isEmpty()) {
      java.util.Map<String, String> read = new java.util.TreeMap<>();
      appendVectorsRead.forEach((file, ref) -> read.put(file, ref.isEmpty() ? null : ref));
      maintainer.dropRewrittenAppendFiles(read);
    }
    return PlannedChange.of(entries, maintainer.indexManifest());
  }

  /** The files this rewrite wrote: those added that it did not only move to another level. */
  @Override
  public List<ManifestEntry> newDataFiles() {
    return written(removed, added);
  }

  /**
   * The entries of {@code after} that a rewrite of {@code before} wrote: all but the files it
   * only moved to another level. A moved file was committed before and may be referenced by
   * older snapshots, so cleanup after a failure must never take it.
   */
  public static List<ManifestEntry> written(List<ManifestEntry> before, List<ManifestEntry> after) {
    Set<ManifestEntry.FileId> moved = new HashSet<>();
    for (ManifestEntry e : before) moved.add(e.id());
    List<ManifestEntry> out = new ArrayList<>();
    for (ManifestEntry e : after) if (!moved.contains(e.id())) out.add(e);
    return out;
  }

  @Override
  public List<String> newIndexFiles() {
    List<String> out = new ArrayList<>();
    for (BucketVectorChange c : vectors) if (c.newEntry != null) out.add(c.newEntry.fileName);
    return out;
  }
}
