package io.lagoon.core.lifecycle;

import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.snapshot.SnapshotManager;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.TableOptions;
import java.io.IOException;
import java.util.Optional;

/**
 * Expires old snapshots by Paimon's rules and deletes exactly the files no remaining snapshot, tag
 * or branch uses. Which snapshots go: every one more than {@code retainMax} behind the latest; of
 * the rest, from the earliest on, those committed before {@code olderThanMillis}, always keeping
 * the newest {@code retainMin}, and at most {@code maxDeletes} per run; never a snapshot a consumer
 * ({@code consumer/consumer-<id>}) still has to read, unless it was not updated for
 * {@code consumer.expiration-time} (then the consumer goes).
 *
 * <p>Deletion order keeps the table readable if the process dies half-way: data, index and
 * metadata files no kept snapshot uses first, then the expired snapshot files from the oldest up
 * (the snapshot ids stay contiguous), then the {@code EARLIEST} hint. The next expiry finds the
 * same snapshots still there and finishes.
 */
public final class ExpireSnapshots {
  private final FileStoreTable table;
  private int retainMin;
  private int retainMax;
  private long olderThanMillis;
  private int maxDeletes;

  /** With the table's options: {@code snapshot.num-retained.min/max}, {@code snapshot.time-retained}, {@code snapshot.expire.limit}. */
  public ExpireSnapshots(FileStoreTable table) {
    this.table = table;
    TableOptions o = table.options();
    this.retainMin = o.snapshotNumRetainedMin();
    this.retainMax = o.snapshotNumRetainedMax();
    this.olderThanMillis = System.currentTimeMillis() - o.snapshotTimeRetained().toMillis();
    this.maxDeletes = o.snapshotExpireLimit();
  }

  public ExpireSnapshots retainMin(int n) {
    if (n < 1) throw new IllegalArgumentException("retain_min must be at least 1, got " + n);
    retainMin = n;
    return this;
  }

  public ExpireSnapshots retainMax(int n) {
    if (n < 1) throw new IllegalArgumentException("retain_max must be at least 1, got " + n);
    retainMax = n;
    return this;
  }

  public int retainMin() {
    return retainMin;
  }

  public ExpireSnapshots olderThan(long millis) {
    olderThanMillis = millis;
    return this;
  }

  public ExpireSnapshots maxDeletes(int n) {
    if (n < 1) throw new IllegalArgumentException("max_deletes must be at least 1, got " + n);
    maxDeletes = n;
    return this;
  }

  /** @return the number of snapshots expired */
  public int expire() throws IOException {
    if (retainMax < retainMin) {
      throw new IllegalArgumentException("retain_max (" + retainMax + ") must not be less than retain_min (" + retainMin + ")");
    }
    SnapshotManager sm = table.snapshots();
    Optional<Long> latest = sm.latestId();
    Optional<Long> earliest = sm.earliestId();
    if (latest.isEmpty() || earliest.isEmpty()) return 0;
    long end = end(sm, earliest.get(), latest.get());
    if (end <= earliest.get()) return 0;
    return expireUntil(sm, earliest.get(), end, latest.get());
  }

  /** The first snapshot that stays. */
  private long end(SnapshotManager sm, long earliest, long latest) throws IOException {
    long min = Math.max(latest - retainMax + 1, earliest);
    long maxExclusive = Math.min(latest - retainMin + 1, earliest + maxDeletes);
    Optional<Long> consumer = new io.lagoon.core.snapshot.ConsumerManager(table.io(), table.metadataDir())
        .minNextSnapshot(table.options().consumerExpirationTime());
    if (consumer.isPresent()) {
      maxExclusive = Math.min(maxExclusive, consumer.get());
      min = Math.min(min, maxExclusive);
    }
    for (long id = min; id < maxExclusive; id++) {
      if (!sm.exists(id)) continue;
      if (sm.snapshot(id).timeMillis >= olderThanMillis) return id;
    }
    return maxExclusive;
  }

  private int expireUntil(SnapshotManager sm, long earliest, long end, long latest) throws IOException {
    ReferencedFiles gone = ReferencedFiles.removable(table);
    SnapshotWalk.addRange(sm, earliest, end - 1, gone);
    // What stays: the first kept snapshot whole, every later one's additions, the tags, other branches.
    ReferencedFiles kept = ReferencedFiles.kept(table);
    SnapshotWalk.addRange(sm, end, latest, kept);
    SnapshotWalk.addTags(table.tags(), t -> true, kept);
    SnapshotWalk.addBranches(table.io(), table.dir(), table.metadataDir(), kept);
    // A snapshot committed while this ran builds on a kept one: it adds new files only.
    FileCleaner cleaner = new FileCleaner(table);
    cleaner.deleteUnused(gone, kept);
    int expired = 0;
    for (long id = earliest; id < end; id++) {
      if (sm.exists(id)) {
        cleaner.delete(sm.snapshotPath(id));
        expired++;
      }
    }
    sm.hint("EARLIEST", end);
    cleaner.removeEmptyDirectories();
    return expired;
  }
}
