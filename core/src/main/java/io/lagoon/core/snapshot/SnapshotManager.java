package io.lagoon.core.snapshot;

import io.lagoon.core.fs.FileIO;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Finds and reads the snapshots of one table ({@code snapshot/snapshot-N}) and keeps the
 * {@code EARLIEST}/{@code LATEST} hints. Hints are advisory: the folder listing is the truth.
 *
 * <p>The folder may also hold temporary files of writers killed mid-publish
 * ({@code .snapshot-N.<uuid>.tmp}, {@code .LATEST.<uuid>.tmp}, see {@link FileIO#tryPublish}):
 * they are never taken for snapshots (only {@code snapshot-<digits>} is), and the latest snapshot
 * is found from the hint by probing the next ids, so the folder is listed only when the hint is
 * missing or points at an expired snapshot.
 */
public final class SnapshotManager implements Serializable {
  public static final String PREFIX = "snapshot-";
  private final FileIO io;
  private final Path tableDir;

  public SnapshotManager(FileIO io, Path tableDir) {
    this.io = io;
    this.tableDir = tableDir;
  }

  public Path snapshotDir() {
    return new Path(tableDir, "snapshot");
  }

  public Path snapshotPath(long id) {
    return new Path(snapshotDir(), PREFIX + id);
  }

  /** Ids probed past a stale {@code LATEST} hint before the folder is listed instead. */
  static final int HINT_PROBES = 32;

  public Optional<Long> latestId() throws IOException {
    Long hint = readHint("LATEST");
    if (hint != null && io.exists(snapshotPath(hint))) {
      // Snapshot ids are contiguous: the latest is the last one that exists after the hint (a
      // writer may have published and died before moving the hint).
      long id = hint;
      for (int probe = 0; probe < HINT_PROBES; probe++) {
        if (!io.exists(snapshotPath(id + 1))) return Optional.of(id);
        id++;
      }
    }
    List<Long> ids = listIds();
    return ids.isEmpty() ? Optional.empty() : Optional.of(ids.get(ids.size() - 1));
  }

  public Optional<Long> earliestId() throws IOException {
    Long hint = readHint("EARLIEST");
    if (hint != null && io.exists(snapshotPath(hint)) && !io.exists(snapshotPath(hint - 1))) {
      return Optional.of(hint);
    }
    List<Long> ids = listIds();
    return ids.isEmpty() ? Optional.empty() : Optional.of(ids.get(0));
  }

  public Optional<Snapshot> latest() throws IOException {
    Optional<Long> id = latestId();
    return id.isPresent() ? Optional.of(snapshot(id.get())) : Optional.empty();
  }

  public boolean exists(long id) throws IOException {
    return io.exists(snapshotPath(id));
  }

  public Snapshot snapshot(long id) throws IOException {
    Path p = snapshotPath(id);
    String json;
    try {
      json = io.readUtf8(p);
    } catch (java.io.FileNotFoundException e) {
      throw new SnapshotNotFoundException("Snapshot " + id + " does not exist: " + p);
    }
    try {
      return Snapshot.fromJson(json);
    } catch (IOException | RuntimeException e) {
      throw new IOException("Corrupt snapshot file " + p + ": " + e.getMessage(), e);
    }
  }

  /** A snapshot file's text as written (fields Lagoon does not model included), or empty when it is gone. */
  public Optional<String> json(long id) throws IOException {
    try {
      return Optional.of(io.readUtf8(snapshotPath(id)));
    } catch (java.io.FileNotFoundException e) {
      return Optional.empty();
    }
  }

  /** Publishes a snapshot file as given (a rollback restoring a tagged snapshot); false if the id exists. */
  public boolean tryPublishJson(long id, String json) throws IOException {
    io.mkdirs(snapshotDir());
    return io.tryPublish(snapshotPath(id), json);
  }

  /** Moves a hint ({@code EARLIEST} or {@code LATEST}); hints are advisory, so a failure is ignored. */
  public void hint(String name, long id) {
    writeHint(name, id);
  }

  /** All snapshot ids present, ascending; other files of the folder (hints, temporary files) are skipped. */
  public List<Long> listIds() throws IOException {
    List<Long> ids = new ArrayList<>();
    for (FileStatus s : io.list(snapshotDir())) {
      long id = idOf(s.getPath().getName());
      if (id >= 0) ids.add(id);
    }
    ids.sort(Long::compare);
    return ids;
  }

  /** The id of a file named {@code snapshot-<digits>}, or -1 for any other name. */
  static long idOf(String name) {
    if (!name.startsWith(PREFIX) || name.length() == PREFIX.length() || name.length() > PREFIX.length() + 18) return -1;
    for (int i = PREFIX.length(); i < name.length(); i++) {
      if (name.charAt(i) < '0' || name.charAt(i) > '9') return -1;
    }
    return Long.parseLong(name.substring(PREFIX.length()));
  }

  /** Atomically publishes a snapshot; false if that id was taken by another writer. */
  public boolean tryCommit(Snapshot s) throws IOException {
    io.mkdirs(snapshotDir());
    boolean ok = io.tryPublish(snapshotPath(s.id), s.toJson());
    if (ok) {
      // Published: nothing may fail from here on, or the caller would take it for a lost attempt
      // and delete the manifests the snapshot references. Hints are advisory.
      try {
        writeHint("LATEST", s.id);
        if (s.id == 1 || readHint("EARLIEST") == null) writeHint("EARLIEST", earliestId().orElse(s.id));
      } catch (IOException | RuntimeException ignore) {
        // the listing decides
      }
    }
    return ok;
  }

  private Long readHint(String name) {
    try {
      Path p = new Path(snapshotDir(), name);
      if (!io.exists(p)) return null;
      return Long.parseLong(io.readUtf8(p).trim());
    } catch (IOException | NumberFormatException e) {
      return null; // a stale or torn hint is ignored; the listing decides
    }
  }

  private void writeHint(String name, long id) {
    try {
      io.overwriteUtf8(new Path(snapshotDir(), name), Long.toString(id));
    } catch (IOException e) {
      // hints are advisory
    }
  }

  /** Raised when a requested snapshot id is not on disk. */
  public static final class SnapshotNotFoundException extends IOException {
    public SnapshotNotFoundException(String msg) {
      super(msg);
    }
  }
}
