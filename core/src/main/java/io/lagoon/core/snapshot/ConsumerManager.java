package io.lagoon.core.snapshot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lagoon.core.fs.FileIO;
import java.io.IOException;
import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * The consumers of a table: {@code consumer/consumer-<id>}, Paimon's JSON {@code {"nextSnapshot": n}},
 * the next snapshot a reader that names itself so must read.
 */
public final class ConsumerManager implements Serializable {
  public static final String PREFIX = "consumer-";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final FileIO io;
  private final Path tableDir;

  public ConsumerManager(FileIO io, Path tableDir) {
    this.io = io;
    this.tableDir = tableDir;
  }

  public Path consumerDir() {
    return new Path(tableDir, "consumer");
  }

  public Path consumerPath(String id) {
    return new Path(consumerDir(), PREFIX + id);
  }

  /** Records that the consumer reads {@code nextSnapshot} next (Paimon's JSON, replaced whole). */
  public void reset(String id, long nextSnapshot) throws IOException {
    requireId(id);
    io.overwriteUtf8(consumerPath(id), "{\n  \"nextSnapshot\" : " + nextSnapshot + "\n}");
  }

  /** Removes a consumer; false when it did not exist. */
  public boolean delete(String id) throws IOException {
    requireId(id);
    return io.delete(consumerPath(id), false);
  }

  private static void requireId(String id) {
    if (id == null || id.isBlank() || id.contains("/") || id.contains("\\")) {
      throw new IllegalArgumentException("A consumer id must be a non-empty name without '/', got '" + id + "'");
    }
  }

  /**
   * The smallest next snapshot of the consumers snapshot expiry must keep for: those updated within
   * {@code expiration} (null: all); expired consumers are removed, as Paimon's expiry does.
   */
  public java.util.Optional<Long> minNextSnapshot(java.time.Duration expiration) throws IOException {
    Long min = null;
    Path dir = consumerDir();
    if (!io.exists(dir)) return java.util.Optional.empty();
    long now = System.currentTimeMillis();
    for (FileStatus s : io.list(dir)) {
      String name = s.getPath().getName();
      if (!name.startsWith(PREFIX) || FileIO.isTemporaryFile(name)) continue;
      if (expiration != null && now - s.getModificationTime() > expiration.toMillis()) {
        io.delete(s.getPath(), false);
        continue;
      }
      JsonNode n = JSON.readTree(io.readUtf8(s.getPath()));
      if (!n.has("nextSnapshot")) continue;
      long next = n.get("nextSnapshot").asLong();
      min = min == null ? next : Math.min(min, next);
    }
    return java.util.Optional.ofNullable(min);
  }

  /** Every consumer's next snapshot, by consumer id. */
  public Map<String, Long> all() throws IOException {
    Map<String, Long> out = new TreeMap<>();
    Path dir = consumerDir();
    if (!io.exists(dir)) return out;
    for (FileStatus s : io.list(dir)) {
      String name = s.getPath().getName();
      if (!name.startsWith(PREFIX) || FileIO.isTemporaryFile(name)) continue;
      JsonNode n = JSON.readTree(io.readUtf8(s.getPath()));
      if (n.has("nextSnapshot")) out.put(name.substring(PREFIX.length()), n.get("nextSnapshot").asLong());
    }
    return out;
  }
}
