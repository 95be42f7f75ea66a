package io.lagoon.core.mergetree.compact;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.KeyValueFileWriter;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.UncommittedFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * Writes an ascending stream of records into files of one level, starting a new file once the
 * current one reaches {@code target-file-size}. Files are cut between records, and every key is
 * unique in the stream, so the files' key ranges never overlap.
 */
final class RollingKeyValueWriter {
  /** Most records between size checks: Parquet sums every column's buffers to answer one. */
  private static final int SIZE_CHECK_INTERVAL = 1000;
  private final FileStoreTable table;
  private final Path bucketDir;
  private final int level;
  private final long targetSize;
  private final List<DataFileMeta> written = new ArrayList<>();
  private KeyValueFileWriter current;
  /** The record count of the open file at which its size is checked next. */
  private long nextSizeCheck = 1;

  RollingKeyValueWriter(FileStoreTable table, Path bucketDir, int level) {
    this.table = table;
    this.bucketDir = bucketDir;
    this.level = level;
    this.targetSize = table.options().targetFileSize();
  }

  void write(KeyValue kv) throws IOException {
    if (current == null) current = new KeyValueFileWriter(table, bucketDir, level);
    current.write(kv);
    long rows = current.rowCount();
    if (rows < nextSizeCheck) return;
    long size = current.estimatedSize();
    if (size >= targetSize) {
      closeCurrent();
    } else {
      // Asks again when about half the room left may be filled, so files end close to the target.
      long left = (targetSize - size) / Math.max(1, size / rows);
      nextSizeCheck = rows + Math.max(1, Math.min(SIZE_CHECK_INTERVAL, left / 2));
    }
  }

  /** Closes the open file and returns every file written so far. */
  List<DataFileMeta> finish() throws IOException {
    closeCurrent();
    return new ArrayList<>(written);
  }

  /** Deletes everything written; best effort, for failures. */
  void abort() {
    if (current != null) current.abort();
    current = null;
    UncommittedFiles.deleteInBucket(table, bucketDir, written);
    written.clear();
  }

  private void closeCurrent() throws IOException {
    if (current == null) return;
    KeyValueFileWriter w = current;
    current = null;
    nextSizeCheck = 1;
    DataFileMeta meta = w.finish();
    if (meta != null) written.add(meta);
  }
}
