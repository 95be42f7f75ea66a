package io.lagoon.core.snapshot;

import io.lagoon.core.fs.FileIO;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * The tag files of one table (or branch): {@code tag/tag-<name>}, each holding a {@link Tag}. A tag
 * is read from its own file, never from {@code snapshot/}, where its snapshot may have expired long
 * ago. New tags are published create-if-absent, so two creators of one name see one winner.
 */
public final class TagManager implements Serializable {
  public static final String PREFIX = "tag-";
  private final FileIO io;
  private final Path tableDir;

  /** @param tableDir the table's folder, or a branch's folder ({@code branch/branch-<name>}) */
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
    return get(name).map(t -> t.snapshot);
  }

  /** The tag of that name, or empty. */
  public Optional<Tag> get(String name) throws IOException {
    if (name.isEmpty() || name.contains("/")) return Optional.empty();
    Path p = tagPath(name);
    String json;
    try {
      json = io.readUtf8(p);
    } catch (java.io.FileNotFoundException e) {
      return Optional.empty();
    }
    try {
      return Optional.of(Tag.parse(name, json));
    } catch (IOException | RuntimeException e) {
      throw new IOException("Corrupt tag file " + p + ": " + e.getMessage(), e);
    }
  }

  public boolean exists(String name) throws IOException {
    return !name.isEmpty() && !name.contains("/") && io.exists(tagPath(name));
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

  /** Every tag, by snapshot id then name; a tag deleted while listing is skipped. */
  public List<Tag> all() throws IOException {
    List<Tag> out = new ArrayList<>();
    for (String n : names()) get(n).ifPresent(out::add);
    out.sort(Comparator.comparingLong((Tag t) -> t.snapshot.id).thenComparing(t -> t.name));
    return out;
  }

  /** When the tag file was last written (storage clock), to age tags made without a creation time. */
  public long modificationTime(String name) throws IOException {
    return io.status(tagPath(name)).getModificationTime();
  }

  /** Publishes a new tag; false when a tag of that name exists (or another creator won). */
  public boolean tryCreate(Tag tag) throws IOException {
    io.mkdirs(tagDir());
    return io.tryPublish(tagPath(tag.name), tag.toJson());
  }

  /** Replaces an existing tag's content in one step. */
  public void overwrite(Tag tag) throws IOException {
    io.overwriteUtf8(tagPath(tag.name), tag.toJson());
  }

  public void delete(String name) throws IOException {
    io.delete(tagPath(name), false);
  }
}
