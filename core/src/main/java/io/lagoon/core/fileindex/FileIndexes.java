package io.lagoon.core.fileindex;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.index.FileIndexFile;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * A data file's indexes, where Paimon keeps them: the container bytes embedded in the manifest
 * entry when small, else the file {@code <data file>.index} beside the data file, named in the
 * entry's extra files. A container that cannot be read (corrupt, or a newer version) counts as no
 * index: the file is read, never skipped.
 */
public final class FileIndexes {
  /** The suffix of a separate index file. */
  public static final String SUFFIX = ".index";

  private FileIndexes() {}

  /** Where a data file's new index went: embedded bytes, or the names of files beside it. */
  public record Placement(byte[] embedded, java.util.List<String> extraFiles) {
  }

  /**
   * Puts a data file's index container where Paimon puts it: embedded when it is at most the
   * table's {@code file-index.in-manifest-threshold}, else the file {@code indexName} beside the
   * data file.
   */
  public static Placement place(FileStoreTable table, Path bucketDir, String indexName, byte[] container)
      throws IOException {
    if (container.length <= FileIndexOptions.inManifestThreshold(table.schema())) {
      return new Placement(container, java.util.List.of());
    }
    table.io().writeBytes(new Path(bucketDir, indexName), container, true);
    return new Placement(null, java.util.List.of(indexName));
  }

  /** Whether the file has indexes at all (embedded or a separate file). */
  public static boolean present(DataFileMeta f) {
    if (f.embeddedIndex != null) return true;
    for (String extra : f.extraFiles) if (extra.endsWith(SUFFIX)) return true;
    return false;
  }

  /**
   * The file's indexes by column (as the file's schema names it) and index type; null when it has
   * none or they cannot be read.
   *
   * @param bucketDir the folder of the data file (a separate index file lies beside it)
   */
  public static Map<String, Map<String, FileIndexFile.Body>> read(FileStoreTable table, Path bucketDir, DataFileMeta f) {
    byte[] container = f.embeddedIndex;
    if (container == null) {
      for (String extra : f.extraFiles) {
        if (!extra.endsWith(SUFFIX)) continue;
        try {
          container = table.io().readBytes(new Path(bucketDir, extra));
        } catch (IOException | RuntimeException e) {
          return null;
        }
      }
    }
    if (container == null) return null;
    try {
      return FileIndexFile.read(container);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
