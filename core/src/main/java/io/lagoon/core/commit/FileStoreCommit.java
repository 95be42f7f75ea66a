package io.lagoon.core.commit;

import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.ManifestFileMeta;
import io.lagoon.core.manifest.ManifestFiles;
import io.lagoon.core.manifest.PartitionStatsCollector;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.snapshot.SnapshotManager;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.UncommittedFiles;
import io.lagoon.core.types.PaimonType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import io.lagoon.core.snapshot.CommitKind;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.fs.Path;

/**
 * The one committer: publishes a {@link TableOperation} as the next snapshot with optimistic
 * concurrency. Each attempt plans the operation on the latest snapshot (which validates it),
 * writes the manifests, and tries to create {@code snapshot-N} atomically; an attempt that loses
 * the race deletes what it wrote and the next one plans again on the new latest snapshot. When the
 * operation no longer applies, or the races go on past {@code commit.max-retries}, the files the
 * operation brought are deleted and {@link CommitConflictException} is raised: nothing of it is
 * committed.
 */
public final class FileStoreCommit {
  /** Merge the base manifests into one once a snapshot references this many. */
  static final int MERGE_MIN_COUNT = 30;

  private final FileStoreTable table;
  private final String commitUser;
  private final long commitIdentifier;
  /** Set for a streaming batch: its new data is committed at most once. */
  private final CommitIdentity identity;

  public FileStoreCommit(FileStoreTable table) {
    this.table = table;
    this.identity = table.commitIdentity();
    this.commitUser = identity == null ? UUID.randomUUID().toString() : identity.user();
    this.commitIdentifier = identity == null ? Long.MAX_VALUE : identity.identifier();
  }

  /**
   * Whether the identity's user committed this identifier or a later one already: the newest
   * snapshot of that user decides (snapshots are walked back from the latest until one is found).
   */
  private boolean committedAlready(SnapshotManager sm, Optional<Snapshot> latest) throws IOException {
    if (latest.isEmpty()) return false;
    Optional<Long> earliest = sm.earliestId();
    for (long id = latest.get().id; id >= earliest.orElse(1L); id--) {
      if (!sm.exists(id)) continue;
      Snapshot s = sm.snapshot(id);
      if (s.commitUser.equals(identity.user())) return s.commitIdentifier >= identity.identifier();
    }
    return false;
  }

  /** @return the new snapshot, or empty when the operation had nothing to commit */
  public Optional<Snapshot> commit(TableOperation op) throws IOException {
    // The manifests an attempt writes are orphans until its snapshot lands: keep orphan removal off them.
    try (io.lagoon.core.table.InflightWrites.Marker inflight = io.lagoon.core.table.InflightWrites.begin(table)) {
      return commitAttempts(op);
    }
  }

  private Optional<Snapshot> commitAttempts(TableOperation op) throws IOException {
    SnapshotManager sm = table.snapshots();
    ManifestFiles mf = table.manifests();
    List<PaimonType> partTypes = table.schema().partitionTypes();
    int maxRetries = table.options().commitMaxRetries();
    for (int attempt = 0; ; attempt++) {
      List<Path> written = new ArrayList<>();
      // The snapshot this attempt plans on; -1 until read (then any later snapshot may hold its files).
      long readAt = -1;
      try {
        Optional<Snapshot> latest = sm.latest();
        readAt = latest.map(x -> x.id).orElse(0L);
        if (identity != null && (op.kind() == CommitKind.APPEND || op.kind() == CommitKind.OVERWRITE)
            && committedAlready(sm, latest)) {
          // A batch replayed after a restart: its rows are in the table already; this attempt's go.
          abandon(op);
          return Optional.empty();
        }
        CommitBase base = new CommitBase(table, latest.orElse(null));
        PlannedChange change = op.plan(base, written);
        if (!change.commit) {
          deleteAll(written);
          return Optional.empty();
        }
        List<ManifestFileMeta> baseManifests = new ArrayList<>(base.manifests());
        if (baseManifests.size() >= MERGE_MIN_COUNT) baseManifests = mergeBase(mf, baseManifests, partTypes, written);
        ManifestFileMeta deltaManifest = mf.writeManifest(change.entries, new PartitionStatsCollector(partTypes),
            table.schema().id());
        written.add(mf.path(deltaManifest.fileName));
        String[] baseList = mf.writeManifestList(baseManifests);
        written.add(mf.path(baseList[0]));
        String[] deltaList = mf.writeManifestList(List.of(deltaManifest));
        written.add(mf.path(deltaList[0]));

        String changelogList = null;
        long changelogRecords = 0;
        if (!change.changelog.isEmpty()) {
          ManifestFileMeta changelogManifest = mf.writeManifest(change.changelog,
              new PartitionStatsCollector(partTypes), table.schema().id());
          written.add(mf.path(changelogManifest.fileName));
          String[] list = mf.writeManifestList(List.of(changelogManifest));
          written.add(mf.path(list[0]));
          changelogList = list[0];
          for (ManifestEntry e : change.changelog) changelogRecords += e.file.rowCount;
        }
        long deltaRecords = 0;
        for (ManifestEntry e : change.entries) deltaRecords += e.kind == FileKind.ADD ? e.file.rowCount : -e.file.rowCount;
        long previousTotal = latest.isPresent() && latest.get().totalRecordCount != null ? latest.get().totalRecordCount : 0;
        long id = latest.map(s -> s.id + 1).orElse(1L);
        Snapshot s = new Snapshot(id, table.schema().id(), baseList[0], Long.parseLong(baseList[1]),
            deltaList[0], Long.parseLong(deltaList[1]), changelogList,
            change.indexManifest, commitUser, commitIdentifier, op.kind(),
            System.currentTimeMillis(), previousTotal + deltaRecords, deltaRecords, changelogRecords, null);
        if (sm.tryCommit(s)) {
          // Paimon expires snapshots after each commit by the table's retention options.
          io.lagoon.core.lifecycle.AfterCommit.run(table, s.id);
          return Optional.of(s);
        }
      } catch (CommitConflictException e) {
        deleteAll(written);
        abandon(op);
        throw e;
      } catch (IOException | RuntimeException e) {
        // The snapshot may have been published before the failure: keep what it may reference.
        deleteAll(written);
        if (readAt >= 0) UncommittedFiles.deleteUnreferenced(table, op.newDataFiles(), readAt);
        throw e;
      }
      deleteAll(written);
      if (attempt >= maxRetries) {
        abandon(op);
        throw new CommitConflictException("Commit to " + table.fullName() + " lost " + (attempt + 1)
            + " races for the next snapshot id; giving up (commit.max-retries=" + maxRetries + ")");
      }
      RetryBackoff.pause(attempt);
    }
  }

  /** The operation is certainly not committed: the files it brought go. */
  private void abandon(TableOperation op) {
    UncommittedFiles.deleteData(table, op.newDataFiles());
    UncommittedFiles.deleteIndex(table, op.newIndexFiles());
  }

  /** Rewrites the base manifests into one holding only live files. */
  private static List<ManifestFileMeta> mergeBase(ManifestFiles mf, List<ManifestFileMeta> base,
                                                  List<PaimonType> partTypes, List<Path> written) throws IOException {
    List<ManifestEntry> all = new ArrayList<>();
    long schemaId = 0;
    for (ManifestFileMeta m : base) {
      all.addAll(mf.readManifest(m));
      schemaId = Math.max(schemaId, m.schemaId);
    }
    List<ManifestEntry> live = new ArrayList<>(LiveFiles.merge(all));
    if (live.isEmpty()) return new ArrayList<>();
    ManifestFileMeta merged = mf.writeManifest(live, new PartitionStatsCollector(partTypes), schemaId);
    written.add(mf.path(merged.fileName));
    List<ManifestFileMeta> out = new ArrayList<>();
    out.add(merged);
    return out;
  }

  private void deleteAll(List<Path> written) {
    for (Path p : written) UncommittedFiles.delete(table, p);
  }
}
