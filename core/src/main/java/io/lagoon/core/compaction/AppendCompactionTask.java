package io.lagoon.core.compaction;

import io.lagoon.core.deletionvectors.DeletionVector;
import io.lagoon.core.deletionvectors.DeletionVectorIndex;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.read.DataFileReader;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.write.RollingFileWriter;
import java.io.IOException;
import java.util.ArrayList;
import scala.collection.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Rewrites a group of an append bucket's files into files of {@code target-file-size}, their rows
 * in order, leaving out rows their deletion vectors mark (the vectors go with the files). The new
 * files take the sequence numbers of the group's first file on, so a fixed-bucket table's rows
 * keep their order.
 */
public final class AppendCompactionTask implements CompactionTask {
  private final FileStoreTable table;
  private final List<ManifestEntry> files;
  /** Each file's vector (null: none), in the order of {@link #files}. */
  private final List<DeletionVectorIndex.Ref> vectors;
  private final DataFileReader reader;

  AppendCompactionTask(FileStoreTable table, List<ManifestEntry> files, List<DeletionVectorIndex.Ref> vectors,
                       DataFileReader reader) {
    this.table = table;
    this.files = List.copyOf(files);
    this.vectors = new ArrayList<>(vectors);
    this.reader = reader;
  }

  @Override
  public Optional<CompactionResult> run() throws IOException {
    ManifestEntry first = files.get(0);
    long firstSequence = Long.MAX_VALUE;
    for (ManifestEntry e : files) firstSequence = Math.min(firstSequence, e.file.minSequenceNumber);
    RollingFileWriter writer = new RollingFileWriter(table, table.paths().bucketDir(first.partition, first.bucket),
        firstSequence);
    DeletionVectorIndex.Loader loader = new DeletionVectorIndex.Loader(table.io(), table.dir(), table.fullName());
    Map<String, String> vectorsRead = new TreeMap<>();
    try {
      for (int i = 0; i < files.size(); i++) {
        ManifestEntry e = files.get(i);
        DeletionVectorIndex.Ref ref = vectors.get(i);
        DeletionVector dv = ref == null ? null : loader.load(ref);
        if (table.options().deletionVectors()) vectorsRead.put(e.file.fileName, DeletionVectorIndex.Ref.keyOf(ref));
        Iterator<InternalRow> rows = reader.open(table.paths().dataFile(e), 0, e.file.fileSize, e.file.fileSize, dv, n -> { },
            e.file.schemaId);
        while (rows.hasNext()) writer.write(rows.next());
      }
      List<ManifestEntry> after = new ArrayList<>();
      for (DataFileMeta f : writer.finish()) {
        after.add(new ManifestEntry(FileKind.ADD, first.partition, first.bucket, first.totalBuckets, f.asCompacted()));
      }
      return Optional.of(new CompactionResult(files, after, null, vectorsRead));
    } catch (IOException | RuntimeException e) {
      writer.abort();
      throw e;
    }
  }

  @Override
  public String describe() {
    ManifestEntry first = files.get(0);
    return table.paths().bucketPath(first.partition, first.bucket) + " (" + files.size() + " files)";
  }

  @Override
  public long inputBytes() {
    long n = 0;
    for (ManifestEntry e : files) n += e.file.fileSize;
    return n;
  }
}
