package io.lagoon.core.table;

import io.lagoon.core.fs.FileIO;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Markers of writes in flight, so orphan removal never takes the files of a commit that has not
 * landed yet: each write (a Spark write job, a compaction, a commit) creates the empty file
 * {@code <table>/_lagoon-inflight-<uuid>} before it writes anything and deletes it when it has
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

  /** One write's marker; {@link #close} is idempotent. */
  public static final class Marker implements AutoCloseable {
    private final FileIO io;
    private final Path path;
    private boolean closed;

    private Marker(FileIO io, Path path) {
      this.io = io;
      this.path = path;
    }

    @Override
    public synchronized void close() {
      if (closed) return;
      closed = true;
      try {
        io.delete(path, false);
      } catch (IOException | RuntimeException ignore) {
        // a stale marker only delays orphan removal until it times out
      }
    }
  }

  /** Marks a write of the table as in flight, before it writes its first file. */
  public static Marker begin(FileStoreTable table) throws IOException {
    Path p = new Path(table.dir(), PREFIX + UUID.randomUUID());
    table.io().writeBytes(p, new byte[0], false);
    return new Marker(table.io(), p);
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
