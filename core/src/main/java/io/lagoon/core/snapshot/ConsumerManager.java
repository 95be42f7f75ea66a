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
