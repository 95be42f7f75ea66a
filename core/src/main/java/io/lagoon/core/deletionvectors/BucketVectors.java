package io.lagoon.core.deletionvectors;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.DataFilePaths;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.Path;

/**
 * The deletion vectors of one bucket while a compaction changes them: loaded from the bucket's
 * index entries of a snapshot, marked with the positions compaction supersedes, dropped for the
 * files it rewrites. Once changed, the bucket's whole vector set is written to one new index file
 * that replaces the bucket's old entries (Paimon keeps a bucket's vectors together the same way).
 */
public final class BucketVectors {
  private final byte[] partition;
  private final int bucket;
  private final List<IndexManifestEntry> base;
  private final boolean bitmap64;
  private final DeletionVectorIndex.Loader loader;
  /** Data file to where its vector is stored in the base entries, for files not loaded yet. */
  private final Map<String, DeletionVectorIndex.Ref> stored = new LinkedHashMap<>();
  private final Map<String, DeletionVector> loaded = new LinkedHashMap<>();
  private final Set<String> dropped = new LinkedHashSet<>();
  private boolean changed;

  /**
   * @param base the bucket's deletion-vector entries in the snapshot compaction starts from
   */
  public BucketVectors(byte[] partition, int bucket, List<IndexManifestEntry> base, boolean bitmap64,
                       FileIO io, Path tableDir, String tableName) {
    this.partition = partition;
    this.bucket = bucket;
    this.base = List.copyOf(base);
    this.bitmap64 = bitmap64;
    this.loader = new DeletionVectorIndex.Loader(io, tableDir, tableName);
    for (IndexManifestEntry e : base) {
      for (DeletionVectorRange r : e.ranges) stored.put(r.dataFile, new DeletionVectorIndex.Ref(e.fileName, r));
    }
  }

  /**
   * The vectors a table's bucket has in a snapshot.
   *
   * @param snapshotIndex the snapshot's index manifest entries (other buckets and types are skipped)
   */
  public static BucketVectors of(FileStoreTable table, byte[] partition, int bucket,
                                 List<IndexManifestEntry> snapshotIndex) {
    List<IndexManifestEntry> mine = new ArrayList<>();
    for (IndexManifestEntry e : snapshotIndex) {
      if (e.isDeletionVectors() && e.bucket == bucket && Arrays.equals(e.partition, partition)) mine.add(e);
    }
    return new BucketVectors(partition, bucket, mine, table.options().deletionVectorsBitmap64(), table.io(),
        table.dir(), table.fullName());
  }

  /**
   * After a compaction of the bucket: writes the new index file if the vectors changed and says
   * what the commit must check and apply.
   *
   * @param bucketFiles the bucket's live files in the snapshot compaction started from
   */
  public BucketVectorChange change(FileStoreTable table, List<ManifestEntry> bucketFiles) throws IOException {
    IndexManifestEntry written = changed ? write(table.io(), table.dir()) : null;
    return new BucketVectorChange(partition, bucket, BucketVectorChange.upperFiles(bucketFiles),
        BucketVectorChange.indexFileNames(base), changed, written);
  }

  /** The data file's vector, or null when none of its rows is deleted. */
  public DeletionVector of(String dataFile) {
    if (dropped.contains(dataFile)) return null;
    DeletionVector dv = loaded.get(dataFile);
    if (dv == null) {
      DeletionVectorIndex.Ref ref = stored.get(dataFile);
      if (ref == null) return null;
      dv = loader.load(ref);
      loaded.put(dataFile, dv);
    }
    return dv;
  }

  /** Marks a row of a data file deleted (superseded by a newer record of its key). */
  public void delete(String dataFile, long position) {
    DeletionVector dv = of(dataFile);
    if (dv == null) {
      dv = DeletionVector.empty(bitmap64);
      dropped.remove(dataFile);
      loaded.put(dataFile, dv);
    }
    dv.delete(position);
    changed = true;
  }

  /** Forgets the vector of a data file that compaction rewrote (its deleted rows are gone). */
  public void drop(String dataFile) {
    if (of(dataFile) == null) return;
    loaded.remove(dataFile);
    dropped.add(dataFile);
    changed = true;
  }

  public boolean changed() {
    return changed;
  }

  public List<IndexManifestEntry> base() {
    return base;
  }

  /**
   * Writes the bucket's vectors after the change to a new index file under {@code index/}.
   *
   * @return the ADD entry of the new file, or null when no vector is left
   */
  public IndexManifestEntry write(FileIO io, Path tableDir) throws IOException {
    Set<String> files = new LinkedHashSet<>(stored.keySet());
    files.addAll(loaded.keySet());
    List<Map.Entry<String, DeletionVector>> all = new ArrayList<>();
    for (String file : files) {
      DeletionVector dv = of(file);
      if (dv != null && !dv.isEmpty()) all.add(new AbstractMap.SimpleEntry<>(file, dv));
    }
    if (all.isEmpty()) return null;
    DeletionVectorFile.Written w = DeletionVectorFile.write(all);
    String name = DataFilePaths.newIndexFileName();
    try (OutputStream out = io.create(new Path(DataFilePaths.indexDir(tableDir), name), false)) {
      out.write(w.bytes);
    }
    return new IndexManifestEntry(FileKind.ADD, partition, bucket, IndexManifestEntry.DELETION_VECTORS, name,
        w.bytes.length, w.ranges.size(), w.ranges);
  }
}
