package io.lagoon.core.fileindex;

import io.lagoon.core.compaction.CompactionResult;
import io.lagoon.core.compaction.CompactionTask;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.read.DataFileReader;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import scala.collection.Iterator;

/**
 * Builds one data file's indexes anew from its rows, as the table's {@code file-index.*} options
 * now ask, without rewriting the data ({@code rewrite_file_index}): the result replaces the file's
 * entry with the same file and its new index. A separate index file gets a new name, so snapshots
 * that still name the old one keep it until they expire. A file whose index would not change is
 * left alone.
 */
public final class FileIndexRewriteTask implements CompactionTask {
  private final FileStoreTable table;
  private final ManifestEntry entry;
  private final DataFileReader reader;

  public FileIndexRewriteTask(FileStoreTable table, ManifestEntry entry, DataFileReader reader) {
    this.table = table;
    this.entry = entry;
    this.reader = reader;
  }

  @Override
  public Optional<CompactionResult> run() throws IOException {
    FileIndexBuilder builder = FileIndexBuilder.of(table.schema());
    Path data = table.paths().dataFile(entry);
    byte[] container = null;
    if (builder != null) {
      Iterator<InternalRow> rows = reader.open(data, 0, entry.file.fileSize, entry.file.fileSize);
      while (rows.hasNext()) builder.add(rows.next());
      container = builder.finish();
    }
    if (Arrays.equals(container, current())) return Optional.empty();
    FileIndexes.Placement placed = container == null ? new FileIndexes.Placement(null, List.of())
        : FileIndexes.place(table, data.getParent(), entry.file.fileName + "-" + UUID.randomUUID() + FileIndexes.SUFFIX,
            container);
    ManifestEntry after = new ManifestEntry(entry.kind, entry.partition, entry.bucket, entry.totalBuckets,
        entry.file.withIndex(placed.embedded(), placed.extraFiles()));
    return Optional.of(new CompactionResult(List.of(entry), List.of(after), null, Map.of()));
  }

  /** The container the file has now (null: none or unreadable). */
  private byte[] current() {
    if (entry.file.embeddedIndex != null) return entry.file.embeddedIndex;
    for (String extra : entry.file.extraFiles) {
      if (!extra.endsWith(FileIndexes.SUFFIX)) continue;
      try {
        return table.io().readBytes(new Path(table.paths().dataFile(entry).getParent(), extra));
      } catch (IOException | RuntimeException e) {
        return null;
      }
    }
    return null;
  }

  @Override
  public String describe() {
    return table.paths().bucketPath(entry.partition, entry.bucket) + "/" + entry.file.fileName;
  }

  @Override
  public long inputBytes() {
    return entry.file.fileSize;
  }
}
