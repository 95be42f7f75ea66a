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
 * The tags of one table: {@code tag/tag-<name>}, each holding the JSON of the snapshot it keeps
 * (Paimon adds optional {@code tagCreateTime} and {@code tagTimeRetained}, which a read ignores).
 * A tag is read from its own file, never from {@code snapshot/}, where its snapshot may have
 * expired long ago.
 */
public final class TagManager implements Serializable {
  public static final String PREFIX = "tag-";
  private final FileIO io;
  private final Path tableDir;

  public TagManager(FileIO io, Path tableDir) {
    this.io = io;
    this.tableDir = tableDir;
  }

  public Path tagDir() {
    return new Path(tableDir, "tag");
  }

  public Path tagPath(String name) {
    return new Path(tagDir(), PREFIX + name);
  }

  /** The snapshot a tag keeps, or empty when there is no tag of that name. */
  public Optional<Snapshot> tag(String name) throws IOException {
    if (name.isEmpty() || name.contains("/")) return Optional.empty();
    Path p = tagPath(name);
    String json;
    try {
      json = io.readUtf8(p);
    } catch (java.io.FileNotFoundException e) {
      return Optional.empty();
    }
    try {
      return Optional.of(Snapshot.fromJson(json));
    } catch (IOException | RuntimeException e) {
      throw new IOException("Corrupt tag file " + p + ": " + e.getMessage(), e);
    }
  }

  /** Names of all tags, sorted (temporary files of killed writers start with a dot: not tags). */
  public List<String> names() throws IOException {
    List<String> out = new ArrayList<>();
    if (!io.exists(tagDir())) return out;
    for (FileStatus s : io.list(tagDir())) {
      String n = s.getPath().getName();
      if (n.startsWith(PREFIX) && n.length() > PREFIX.length()) {
        out.add(n.substring(PREFIX.length()));
      }
    }
    out.sort(String::compareTo);
    return out;
  }
}
