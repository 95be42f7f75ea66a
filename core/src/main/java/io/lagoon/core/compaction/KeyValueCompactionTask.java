package io.lagoon.core.compaction;

import io.lagoon.core.deletionvectors.BucketVectorChange;
import io.lagoon.core.deletionvectors.BucketVectors;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.compact.BucketCompactor;
import io.lagoon.core.mergetree.compact.CompactResult;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The compaction of one primary-key bucket ({@link BucketCompactor}: universal or full, deletion
 * vectors updated), from the bucket's live files and vector index entries in the base snapshot.
 */
public final class KeyValueCompactionTask implements CompactionTask {
  private final FileStoreTable table;
  private final List<ManifestEntry> entries;
  private final List<IndexManifestEntry> bucketIndex;
  private final BucketCompactor.Mode mode;
  private final KeyValueSource source;

  /**
   * @param entries every live file of the bucket
   * @param bucketIndex the bucket's deletion-vector index entries (empty without vectors)
   */
  public KeyValueCompactionTask(FileStoreTable table, List<ManifestEntry> entries, List<IndexManifestEntry> bucketIndex,
                                BucketCompactor.Mode mode, KeyValueSource source) {
    this.table = table;
    this.entries = List.copyOf(entries);
    this.bucketIndex = List.copyOf(bucketIndex);
    this.mode = mode;
    this.source = source;
  }

  @Override
  public Optional<CompactionResult> run() throws IOException {
    ManifestEntry first = entries.get(0);
    Map<String, ManifestEntry> byName = new HashMap<>();
    List<DataFileMeta> files = new ArrayList<>();
    for (ManifestEntry e : entries) {
      byName.put(e.file.fileName, e);
      files.add(e.file);
    }
    BucketVectors vectors = table.options().deletionVectors()
        ? BucketVectors.of(table, first.partition, first.bucket, bucketIndex) : null;
    Optional<CompactResult> result = BucketCompactor.compact(table, first.partition, first.bucket, files, source, mode,
        vectors);
    if (result.isEmpty()) return Optional.empty();
    List<ManifestEntry> before = new ArrayList<>();
    List<ManifestEntry> after = new ArrayList<>();
    for (DataFileMeta f : result.get().before()) before.add(byName.get(f.fileName));
    for (DataFileMeta f : result.get().after()) {
      after.add(new ManifestEntry(FileKind.ADD, first.partition, first.bucket, first.totalBuckets, f));
    }
    BucketVectorChange change = vectors != null ? vectors.change(table, entries) : null;
    return Optional.of(new CompactionResult(before, after, change, Map.of()));
  }

  @Override
  public String describe() {
    ManifestEntry first = entries.get(0);
    return table.paths().bucketPath(first.partition, first.bucket);
  }

  @Override
  public long inputBytes() {
    long n = 0;
    for (ManifestEntry e : entries) n += e.file.fileSize;
    return n;
  }
}
