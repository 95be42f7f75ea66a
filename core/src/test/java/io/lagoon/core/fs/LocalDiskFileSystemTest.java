package io.lagoon.core.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalDiskFileSystemTest {
  @TempDir java.nio.file.Path dir;

  @Test
  void modeBitsMapToPosixPermissions() {
    assertEquals(PosixFilePermissions.fromString("rw-r--r--"), LocalDiskFileSystem.posix((short) 0644));
    assertEquals(PosixFilePermissions.fromString("rwxr-x---"), LocalDiskFileSystem.posix((short) 0750));
    assertEquals(PosixFilePermissions.fromString("---------"), LocalDiskFileSystem.posix((short) 01000));
  }

  @Test
  void filesAndFoldersGetHadoopsPermissionsUnderItsUmask() throws Exception {
    Configuration conf = new Configuration();
    conf.set("fs.permissions.umask-mode", "027");
    FileIO io = new FileIO(conf);
    assertEquals(LocalDiskFileSystem.class, io.fs(new Path(dir.toUri())).getClass());
    Path folder = new Path(dir.toUri().toString(), "a/b");
    io.mkdirs(folder);
    Path file = new Path(folder, "data-1.parquet");
    try (OutputStream out = io.create(file, false)) {
      out.write(42);
    }
    assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a/b/data-1.parquet"))));
    assertEquals("rwxr-x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a/b"))));
    assertEquals(1, io.readBytes(file).length);
  }
}
