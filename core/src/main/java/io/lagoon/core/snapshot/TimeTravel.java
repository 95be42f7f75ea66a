package io.lagoon.core.snapshot;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Finds the snapshot a time-travel read names, by Paimon's rules: a version is a tag name first
 * and a snapshot id second (so a tag named {@code 5} wins over snapshot 5); a time is the last
 * snapshot committed at or before it. A version or time with no snapshot is refused with an error
 * that says which snapshots and tags exist.
 */
public final class TimeTravel {
  private final String table;
  private final SnapshotManager snapshots;
  private final TagManager tags;

  public TimeTravel(String table, SnapshotManager snapshots, TagManager tags) {
    this.table = table;
    this.snapshots = snapshots;
    this.tags = tags;
  }

  /** {@code VERSION AS OF}: a tag, else a snapshot id. */
  public Snapshot version(String version) throws IOException {
    Optional<Snapshot> tagged = tags.tag(version);
    if (tagged.isPresent()) return tagged.get();
    if (!version.isEmpty() && version.chars().allMatch(Character::isDigit) && version.length() <= 18) {
      return snapshot(Long.parseLong(version));
    }
    throw new IllegalArgumentException("Table " + table + " has no tag '" + version + "' and it is not a snapshot id; "
        + available());
  }

  public Snapshot snapshot(long id) throws IOException {
    if (snapshots.exists(id)) {
      try {
        return snapshots.snapshot(id);
      } catch (SnapshotManager.SnapshotNotFoundException expiredMeanwhile) {
        // fall through to the error
      }
    }
    throw new IllegalArgumentException("Table " + table + " has no snapshot " + id + "; " + available());
  }

  public Snapshot tag(String name) throws IOException {
    Optional<Snapshot> tagged = tags.tag(name);
    if (tagged.isPresent()) return tagged.get();
    throw new IllegalArgumentException("Table " + table + " has no tag '" + name + "'; " + available());
  }

  /** {@code TIMESTAMP AS OF}: the last snapshot committed at or before {@code millis}. */
  public Snapshot atOrBefore(long millis) throws IOException {
    Optional<Snapshot> found = search(millis, true);
    if (found.isPresent()) return found.get();
    throw new IllegalArgumentException("Table " + table + " has no snapshot committed at or before "
        + Instant.ofEpochMilli(millis) + "; " + available());
  }

  /** The first snapshot committed at or after {@code millis}, if any. */
  public Optional<Snapshot> atOrAfter(long millis) throws IOException {
    return search(millis, false);
  }

  /**
   * Commit times grow with ids: a binary search for the last snapshot at or before the time
   * ({@code before}), or the first at or after it.
   */
  private Optional<Snapshot> search(long millis, boolean before) throws IOException {
    Optional<Long> earliest = snapshots.earliestId();
    Optional<Long> latest = snapshots.latestId();
    if (earliest.isEmpty() || latest.isEmpty()) return Optional.empty();
    long lo = earliest.get();
    long hi = latest.get();
    Snapshot found = null;
    while (lo <= hi) {
      long mid = lo + (hi - lo) / 2;
      Snapshot s = snapshots.snapshot(mid);
      boolean candidate = before ? s.timeMillis <= millis : s.timeMillis >= millis;
      if (candidate) found = s;
      // Before: a candidate sends the search right; after: a candidate sends it left.
      if (candidate == before) lo = mid + 1;
      else hi = mid - 1;
    }
    return Optional.ofNullable(found);
  }

  /** "snapshots 3..9 (earliest committed at ...), tags [a, b]": what a time-travel read can name. */
  public String available() throws IOException {
    Optional<Long> earliest = snapshots.earliestId();
    Optional<Long> latest = snapshots.latestId();
    StringBuilder b = new StringBuilder();
    if (earliest.isEmpty() || latest.isEmpty()) {
      b.append("it has no snapshots");
    } else {
      b.append("its snapshots are ").append(earliest.get()).append("..").append(latest.get());
      try {
        b.append(" (the earliest committed at ").append(Instant.ofEpochMilli(snapshots.snapshot(earliest.get()).timeMillis))
            .append(')');
      } catch (IOException expiredMeanwhile) {
        // the range alone still says what exists
      }
    }
    List<String> names = tags.names();
    b.append(names.isEmpty() ? ", and it has no tags" : ", its tags " + names);
    return b.toString();
  }
}
