package io.lagoon.core.fs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Local disk for tables: Hadoop's raw local file system (no {@code .crc} side files, as Paimon
 * writes them), but setting permissions through Java instead of Hadoop's fallback, which without
 * Hadoop's native library starts a {@code chmod} process for every file and folder it creates;
 * that was most of the time of a small write.
 */
public final class LocalDiskFileSystem extends RawLocalFileSystem {
  private static final PosixFilePermission[] BITS = {
      PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
      PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};

  @Override
  public void setPermission(Path p, FsPermission permission) throws IOException {
    java.nio.file.Path file = pathToFile(p).toPath();
    if (!file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      super.setPermission(p, permission);
      return;
    }
    Files.setPosixFilePermissions(file, posix(permission.toShort()));
  }

  /** The rwx bits of a permission (sticky and set-id bits are not set by table writes). */
  static Set<PosixFilePermission> posix(short mode) {
    Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
    for (int bit = 0; bit < BITS.length; bit++) if ((mode & (1 << bit)) != 0) out.add(BITS[bit]);
    return out;
  }
}
