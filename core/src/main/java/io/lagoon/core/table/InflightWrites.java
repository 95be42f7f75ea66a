package io.lagoon.core.table;

import io.lagoon.core.fs.FileIO;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Markers of writes in flight, so orphan removal never takes the files of a commit that has not
 * landed yet: each write (a Spark write job, a compaction, a commit) creates the empty file
 * {@code <table>/_lagoon-inflight-<uuid>} (or shares one, see {@link #SHARE_MILLIS}) before it writes anything and deletes it when it has
 * committed or given up. (Files in the table's own folder, not a folder of markers: writers
 * creating and deleting a shared folder would race.) Every file such a write creates is younger than its marker (same storage clock),
 * so orphan removal keeps every file not older than the oldest live marker. A marker older than
 * {@link #TIMEOUT_MILLIS} belongs to a writer that died and is ignored (and removed). Paimon's
 * readers and writers do not look at this folder.
 */
public final class InflightWrites {
  public static final String PREFIX = "_lagoon-inflight-";
  /** A write running longer than this loses its protection (as with Paimon's default {@code older_than}). */
  public static final long TIMEOUT_MILLIS = 24L * 60 * 60 * 1000;

  private InflightWrites() {}

  /**
   * Writes of one table in this JVM that overlap (a statement and the commits inside it) share
   * one marker file: the oldest covers every later file. A marker is shared for at most
   * {@link #SHARE_MILLIS}, far below {@link #TIMEOUT_MILLIS}, so one kept alive by a stream of
   * overlapping writes never looks dead.
   */
  static final long SHARE_MILLIS = 60L * 60 * 1000;
  private static final Map<String, Shared> HELD = new HashMap<>();

  /** A marker file and the writes of this JVM holding it. */
  private static final class Shared {
    final FileIO io;
    final Path path;
    final long since = System.currentTimeMillis();
    int users;

    Shared(FileIO io, Path path) {
      this.io = io;
      this.path = path;
    }
  }

  /** One write's hold on a marker; {@link #close} is idempotent. */
  public static final class Marker implements AutoCloseable {
    private final String table;
    private final Shared shared;
    private boolean closed;

    private Marker(String table, Shared shared) {
      this.table = table;
      this.shared = shared;
    }

    @Override
    public void close() {
      synchronized (InflightWrites.class) {
        if (closed) return;
        closed = true;
        if (--shared.users > 0) return;
        if (HELD.get(table) == shared) HELD.remove(table);
      }
      try {
        shared.io.delete(shared.path, false);
      } catch (IOException | RuntimeException ignore) {
        // a stale marker only delays orphan removal until it times out
      }
    }
  }

  /** Marks a write of the table as in flight, before it writes its first file. */
  public static synchronized Marker begin(FileStoreTable table) throws IOException {
    String key = table.dir().toString();
    Shared s = HELD.get(key);
    if (s == null || System.currentTimeMillis() - s.since > SHARE_MILLIS) {
      Path p = new Path(table.dir(), PREFIX + UUID.randomUUID());
      table.io().writeBytes(p, new byte[0], false);
      s = new Shared(table.io(), p);
      HELD.put(key, s);
    }
    s.users++;
    return new Marker(key, s);
  }

  /** The live markers' and the dead ones' statuses at {@code nowMillis}. */
  public record Markers(List<FileStatus> live, List<FileStatus> dead) {
    /** Modification time of the oldest live marker, if any. */
    public OptionalLong oldest() {
      return live.stream().mapToLong(FileStatus::getModificationTime).min();
    }
  }

  public static Markers list(FileIO io, Path tableDir, long nowMillis) throws IOException {
    List<FileStatus> live = new ArrayList<>();
    List<FileStatus> dead = new ArrayList<>();
    for (FileStatus s : io.list(tableDir)) {
      if (!s.isFile() || !s.getPath().getName().startsWith(PREFIX)) continue;
      (nowMillis - s.getModificationTime() > TIMEOUT_MILLIS ? dead : live).add(s);
    }
    return new Markers(live, dead);
  }
}
