package io.lagoon.core.commit;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.ManifestFileMeta;
import io.lagoon.core.manifest.ManifestFiles;
import io.lagoon.core.manifest.PartitionStatsCollector;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.CommitKind;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.snapshot.SnapshotManager;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.PaimonType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Publishes new snapshots with optimistic concurrency: build the manifests against the latest
 * snapshot, try to create {@code snapshot-N} atomically, and on losing the race rebuild against
 * the new latest and try again. A failed attempt leaves only unreferenced files behind.
 */
public final class FileStoreCommit {
  /** Merge the base manifests into one once a snapshot references this many. */
  static final int MERGE_MIN_COUNT = 30;

  private final FileStoreTable table;
  private final String commitUser = UUID.randomUUID().toString();

  public FileStoreCommit(FileStoreTable table) {
    this.table = table;
  }

  /** Appends new files. Returns the new snapshot, or empty if there was nothing to commit. */
  public Optional<Snapshot> append(List<ManifestEntry> added) throws IOException {
    if (added.isEmpty()) return Optional.empty();
    return Optional.of(commit(added, CommitKind.APPEND, null));
  }

  /**
   * Replaces every live file whose partition matches {@code partitionFilter} with {@code added}.
   * The files to remove are re-read from the latest snapshot on every attempt.
   */
  public Snapshot overwrite(List<ManifestEntry> added, Predicate<InternalRow> partitionFilter) throws IOException {
    return commit(added, CommitKind.OVERWRITE, partitionFilter, List.of(), dropVectorsOf(partitionFilter));
  }

  /** Commits a compaction or rewrite: removes exactly {@code removed} (which must still be live) and adds {@code added}. */
  public Snapshot replace(List<ManifestEntry> removed, List<ManifestEntry> added, CommitKind kind) throws IOException {
    // Deletes first: a compaction that only moves a file to another level deletes and re-adds
    // the same file name, and replay must end with the re-added entry.
    List<ManifestEntry> changes = new ArrayList<>();
    for (ManifestEntry e : removed) changes.add(e.withKind(FileKind.DELETE));
    changes.addAll(added);
    return commit(changes, kind, null, removed);
  }

  /**
   * A compaction or rewrite that also changes index files (deletion vectors), checked and planned
   * by {@code indexChange} on every attempt.
   */
  public Snapshot replace(List<ManifestEntry> removed, List<ManifestEntry> added, CommitKind kind,
                          IndexChange indexChange) throws IOException {
    return replace(removed, added, kind, indexChange, null);
  }

  /**
   * A compaction or rewrite whose result {@code validation} checks against the latest live files
   * on every attempt; {@code indexChange} may be null (no index change), as may {@code validation}.
   */
  public Snapshot replace(List<ManifestEntry> removed, List<ManifestEntry> added, CommitKind kind,
                          IndexChange indexChange, Validation validation) throws IOException {
    List<ManifestEntry> changes = new ArrayList<>();
    for (ManifestEntry e : removed) changes.add(e.withKind(FileKind.DELETE));
    changes.addAll(added);
    return commit(changes, kind, null, removed, indexChange, validation);
  }

  /**
   * Checks, once per attempt, that a change still applies to the snapshot it is committed on top
   * of (for instance that no level above 0 would hold two files overlapping in key range).
   */
  public interface Validation {
    /**
     * @param live the latest snapshot's live files
     * @param changes this commit's entries, DELETEs before ADDs
     * @throws CommitConflictException when committing would break the table
     */
    void check(Collection<ManifestEntry> live, List<ManifestEntry> changes);
  }

  /**
   * An overwrite drops the deletion vectors of the partitions it replaces: every data file there
   * goes, so their vectors must not stay in the index manifest.
   */
  private IndexChange dropVectorsOf(Predicate<InternalRow> partitions) {
    List<PaimonType> partTypes = table.schema().partitionTypes();
    return (latest, written) -> {
      if (latest.indexManifest == null) return null;
      ManifestFiles mf = table.manifests();
      List<IndexManifestEntry> kept = new ArrayList<>();
      boolean dropped = false;
      for (IndexManifestEntry e : mf.readIndexManifest(latest.indexManifest)) {
        if (e.isDeletionVectors() && partitions.test(BinaryRows.deserialize(e.partition, partTypes))) dropped = true;
        else kept.add(e);
      }
      if (!dropped) return latest.indexManifest;
      if (kept.isEmpty()) return null;
      String manifest = mf.writeIndexManifest(kept);
      written.add("manifest/" + manifest);
      return manifest;
    };
  }

  /** Plans a change of a snapshot's index files against the latest snapshot, once per attempt. */
  public interface IndexChange {
    /**
     * Writes what the change needs against {@code latest} (index files, then the new index
     * manifest) and returns the new index manifest's name; {@code written} collects every file
     * written, deleted if the attempt loses its race.
     *
     * @throws CommitConflictException when the change no longer applies (a file it touches is gone)
     */
    String apply(Snapshot latest, List<String> written) throws IOException;
  }

  /**
   * Commits a change of index files only (deletion vectors): the data files stay as they are. On
   * a lost race the change is planned again against the new latest snapshot, so concurrent
   * changes to the same vectors are merged, never lost.
   */
  public Snapshot commitIndex(IndexChange change, CommitKind kind) throws IOException {
    return commit(List.of(), kind, null, List.of(), change);
  }

  private Snapshot commit(List<ManifestEntry> changes, CommitKind kind, Predicate<InternalRow> overwrite) throws IOException {
    return commit(changes, kind, overwrite, List.of());
  }

  private Snapshot commit(List<ManifestEntry> changes, CommitKind kind, Predicate<InternalRow> overwrite,
                          List<ManifestEntry> mustBeLive) throws IOException {
    return commit(changes, kind, overwrite, mustBeLive, null, null);
  }

  private Snapshot commit(List<ManifestEntry> changes, CommitKind kind, Predicate<InternalRow> overwrite,
                          List<ManifestEntry> mustBeLive, IndexChange indexChange) throws IOException {
    return commit(changes, kind, overwrite, mustBeLive, indexChange, null);
  }

  private Snapshot commit(List<ManifestEntry> changes, CommitKind kind, Predicate<InternalRow> overwrite,
                          List<ManifestEntry> mustBeLive, IndexChange indexChange, Validation validation)
      throws IOException {
    SnapshotManager sm = table.snapshots();
    ManifestFiles mf = table.manifests();
    List<PaimonType> partTypes = table.schema().partitionTypes();
    int maxRetries = table.options().commitMaxRetries();
    for (int attempt = 0; ; attempt++) {
      Optional<Snapshot> latest = sm.latest();
      List<ManifestEntry> delta = new ArrayList<>(changes);
      List<ManifestFileMeta> base = new ArrayList<>();
      Collection<ManifestEntry> live = null;
      if (latest.isPresent()) base.addAll(LiveFiles.manifests(mf, latest.get()));
      if (overwrite != null || !mustBeLive.isEmpty() || validation != null) {
        live = latest.isPresent() ? LiveFiles.read(mf, latest.get()) : List.of();
      }
      if (overwrite != null) {
        for (ManifestEntry e : live) {
          InternalRow part = BinaryRows.deserialize(e.partition, partTypes);
          if (overwrite.test(part)) delta.add(e.withKind(FileKind.DELETE));
        }
      }
      if (!mustBeLive.isEmpty()) checkStillLive(mustBeLive, live);
      if (validation != null) validation.check(live, delta);

      List<String> written = new ArrayList<>();
      List<String> indexFiles = new ArrayList<>();
      try {
        String indexManifest = latest.map(l -> l.indexManifest).orElse(null);
        if (indexChange != null && latest.isPresent()) {
          indexManifest = indexChange.apply(latest.get(), indexFiles);
        } else if (indexChange != null && kind != CommitKind.OVERWRITE) {
          throw new CommitConflictException("Table " + table.fullName() + " has no snapshot");
        }
        if (base.size() >= MERGE_MIN_COUNT) base = mergeBase(mf, base, partTypes, written);
        ManifestFileMeta deltaManifest = mf.writeManifest(delta, new PartitionStatsCollector(partTypes), table.schema().id());
        written.add(deltaManifest.fileName);
        String[] baseList = mf.writeManifestList(base);
        written.add(baseList[0]);
        String[] deltaList = mf.writeManifestList(List.of(deltaManifest));
        written.add(deltaList[0]);

        long deltaRecords = 0;
        for (ManifestEntry e : delta) deltaRecords += e.kind == FileKind.ADD ? e.file.rowCount : -e.file.rowCount;
        long previousTotal = latest.isPresent() && latest.get().totalRecordCount != null ? latest.get().totalRecordCount : 0;
        long id = latest.map(s -> s.id + 1).orElse(1L);
        Snapshot s = new Snapshot(id, table.schema().id(), baseList[0], Long.parseLong(baseList[1]),
            deltaList[0], Long.parseLong(deltaList[1]), null,
            indexManifest, commitUser, Long.MAX_VALUE, kind,
            System.currentTimeMillis(), previousTotal + deltaRecords, deltaRecords, 0L, null);
        if (sm.tryCommit(s)) return s;
      } catch (IOException | RuntimeException e) {
        cleanup(mf, written);
        cleanupIndex(indexFiles);
        throw e;
      }
      cleanup(mf, written);
      cleanupIndex(indexFiles);
      if (attempt >= maxRetries) {
        throw new CommitConflictException("Commit to " + table.fullName() + " lost " + (attempt + 1)
            + " races for the next snapshot id; giving up (commit.max-retries=" + maxRetries + ")");
      }
      RetryBackoff.pause(attempt);
    }
  }

  private void checkStillLive(List<ManifestEntry> mustBeLive, Collection<ManifestEntry> live) {
    // The level counts too: Paimon matches a DELETE to its ADD by level, so a file another commit
    // moved to a new level is no longer the entry this commit deletes.
    java.util.Map<ManifestEntry.FileId, Integer> levels = new java.util.HashMap<>();
    for (ManifestEntry e : live) levels.put(e.id(), e.file.level);
    for (ManifestEntry e : mustBeLive) {
      Integer level = levels.get(e.id());
      if (level == null || level != e.file.level) {
        throw new CommitConflictException("File deletion conflict on " + table.fullName() + ": " + e.id()
            + " was removed by a concurrent commit; the operation must be retried on the new snapshot");
      }
    }
  }

  /** Rewrites the base manifests into one holding only live files. */
  private static List<ManifestFileMeta> mergeBase(ManifestFiles mf, List<ManifestFileMeta> base,
                                                  List<PaimonType> partTypes, List<String> written) throws IOException {
    List<ManifestEntry> all = new ArrayList<>();
    long schemaId = 0;
    for (ManifestFileMeta m : base) {
      all.addAll(mf.readManifest(m.fileName));
      schemaId = Math.max(schemaId, m.schemaId);
    }
    List<ManifestEntry> live = new ArrayList<>(LiveFiles.merge(all));
    if (live.isEmpty()) return new ArrayList<>();
    ManifestFileMeta merged = mf.writeManifest(live, new PartitionStatsCollector(partTypes), schemaId);
    written.add(merged.fileName);
    List<ManifestFileMeta> out = new ArrayList<>();
    out.add(merged);
    return out;
  }

  /** Deletes index-change files of a failed attempt (paths relative to the table folder). */
  private void cleanupIndex(List<String> written) {
    for (String f : written) {
      try {
        table.io().delete(new org.apache.hadoop.fs.Path(table.dir(), f), false);
      } catch (IOException ignore) {
        // an orphan at worst
      }
    }
  }

  private void cleanup(ManifestFiles mf, List<String> written) {
    for (String name : written) {
      try {
        table.io().delete(mf.path(name), false);
      } catch (IOException ignore) {
        // an unreferenced file; orphan cleanup removes it
      }
    }
  }
}
