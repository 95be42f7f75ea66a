package io.lagoon.core.fs;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Storage access through Hadoop's FileSystem, so local disk, HDFS and object stores all work.
 * Serializable: executors rebuild the FileSystem from the shipped configuration entries.
 */
public final class FileIO implements Serializable {
  private final SerializableConfiguration conf;

  public FileIO(Configuration conf) {
    Configuration c = new Configuration(conf);
    // Local disk without Hadoop's .crc side files (as Paimon writes it) and without a process per file.
    c.set("fs.file.impl", LocalDiskFileSystem.class.getName());
    c.setBoolean("fs.file.impl.disable.cache", true);
    this.conf = new SerializableConfiguration(c);
  }

  public Configuration hadoopConf() {
    return conf.get();
  }

  public FileSystem fs(Path path) {
    try {
      return path.getFileSystem(conf.get());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot reach file system of " + path + ": " + e.getMessage(), e);
    }
  }

  public boolean exists(Path path) throws IOException {
    return fs(path).exists(path);
  }

  public FileStatus status(Path path) throws IOException {
    return fs(path).getFileStatus(path);
  }

  public List<FileStatus> list(Path dir) throws IOException {
    List<FileStatus> out = new ArrayList<>();
    try {
      for (FileStatus s : fs(dir).listStatus(dir)) out.add(s);
    } catch (FileNotFoundException e) {
      // an absent folder lists as empty
    }
    return out;
  }

  public void mkdirs(Path dir) throws IOException {
    fs(dir).mkdirs(dir);
  }

  public boolean delete(Path path, boolean recursive) throws IOException {
    return fs(path).delete(path, recursive);
  }

  public boolean rename(Path from, Path to) throws IOException {
    return fs(from).rename(from, to);
  }

  public byte[] readBytes(Path path) throws IOException {
    try (InputStream in = fs(path).open(path)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toByteArray();
    }
  }

  public String readUtf8(Path path) throws IOException {
    return new String(readBytes(path), StandardCharsets.UTF_8);
  }

  public OutputStream create(Path path, boolean overwrite) throws IOException {
    return fs(path).create(path, overwrite);
  }

  public void writeBytes(Path path, byte[] content, boolean overwrite) throws IOException {
    try (OutputStream out = create(path, overwrite)) {
      out.write(content);
    }
  }

  /** Overwrites a small file (hints, schema of a fresh table) by write-then-rename. */
  public void overwriteUtf8(Path path, String content) throws IOException {
    Path tmp = temporaryPath(path);
    writeBytes(tmp, content.getBytes(StandardCharsets.UTF_8), true);
    FileSystem fs = fs(path);
    if (isLocal(path)) {
      Files.move(localPath(tmp), localPath(path), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } else {
      fs.delete(path, false);
      if (!fs.rename(tmp, path)) throw new IOException("Could not replace " + path);
    }
  }

  /**
   * Publishes {@code content} at {@code path} only if no file is there yet, atomically: two writers
   * racing for the same name see exactly one winner. Local disk uses a hard link (fails if the
   * target exists, across processes); HDFS-like stores use rename, which refuses an existing
   * target. Returns false when another writer got there first.
   */
  public boolean tryPublish(Path path, String content) throws IOException {
    if (exists(path)) return false;
    Path tmp = temporaryPath(path);
    writeBytes(tmp, content.getBytes(StandardCharsets.UTF_8), false);
    try {
      if (isLocal(path)) {
        try {
          Files.createLink(localPath(path), localPath(tmp));
          return true;
        } catch (FileAlreadyExistsException e) {
          return false;
        }
      }
      return fs(path).rename(tmp, path);
    } finally {
      try {
        delete(tmp, false);
      } catch (IOException | RuntimeException ignore) {
        // a leftover temporary file; the publish itself is decided
      }
    }
  }

  /**
   * Where a file is first written before it is moved or linked into place: {@code .<name>.<uuid>.tmp}
   * beside it. A writer killed in between leaves such a file; readers never take it for a
   * snapshot, schema or hint, and orphan removal recognises it by {@link #isTemporaryFile}.
   */
  static Path temporaryPath(Path target) {
    return new Path(target.getParent(), "." + target.getName() + "." + UUID.randomUUID() + TEMPORARY_SUFFIX);
  }

  private static final String TEMPORARY_SUFFIX = ".tmp";

  /** Whether a file name is one {@link #temporaryPath} makes (the leftover of an interrupted publish). */
  public static boolean isTemporaryFile(String name) {
    // "." + target + "." + 36-character uuid + ".tmp"
    return name.startsWith(".") && name.endsWith(TEMPORARY_SUFFIX) && name.length() > 1 + 1 + 36 + TEMPORARY_SUFFIX.length();
  }

  private static boolean isLocal(Path p) {
    URI u = p.toUri();
    return u.getScheme() == null || "file".equals(u.getScheme());
  }

  private static java.nio.file.Path localPath(Path p) {
    return Paths.get(p.toUri().getPath());
  }
}
