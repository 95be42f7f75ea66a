package io.lagoon.core.deletionvectors;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.commit.FileStoreCommit;
import io.lagoon.core.manifest.BucketId;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.ManifestFiles;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.CommitKind;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.TableOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.Path;

/**
 * Deletes rows of an append table by position: the operation row-level DELETE, UPDATE and MERGE
 * build on. Each named data file's positions join its deletion vector; every bucket touched gets
 * one new index file holding all its vectors (as Paimon keeps them), the old one leaves the index
 * manifest, and vectors of data files no longer live are dropped. The commit is optimistic: on a
 * lost race it is planned again against the new snapshot, so vectors written meanwhile are merged.
 */
public final class RowDeletions {
  private RowDeletions() {}

  /**
   * @param positions data file name (of the latest snapshot) to the row positions to delete
   * @return the new snapshot
   * @throws IllegalArgumentException naming the file or position when a file is not live or a
   *     position is outside it, and nothing is committed
   */
  public static Snapshot delete(FileStoreTable table, Map<String, long[]> positions) throws IOException {
    if (table.hasPrimaryKey()) {
      throw new UnsupportedOperationException("Table " + table.fullName() + " has a primary key: its rows are "
          + "deleted by writing retractions, not by position");
    }
    if (!table.options().deletionVectors()) {
      throw new IllegalArgumentException("Table " + table.fullName() + " does not keep deletion vectors: set '"
          + TableOptions.DELETION_VECTORS_ENABLED + "'='true' first");
    }
    if (positions.isEmpty()) throw new IllegalArgumentException("No rows to delete");
    boolean bitmap64 = table.options().deletionVectorsBitmap64();
    String writer = UUID.randomUUID().toString();
    int[] counter = {0};
    return new FileStoreCommit(table).commitIndex((latest, written) -> {
      ManifestFiles mf = table.manifests();
      Map<String, ManifestEntry> live = new HashMap<>();
      for (ManifestEntry e : LiveFiles.read(mf, latest)) live.put(e.file.fileName, e);
      // Buckets touched, each with the new positions of its files.
      Map<BucketId, Map<String, long[]>> byBucket = new LinkedHashMap<>();
      Map<BucketId, ManifestEntry> bucketOf = new HashMap<>();
      for (Map.Entry<String, long[]> p : positions.entrySet()) {
        ManifestEntry e = live.get(p.getKey());
        if (e == null) {
          throw new CommitConflictException("Data file " + p.getKey() + " is not live in snapshot " + latest.id
              + " of " + table.fullName() + " (removed by a compaction or overwrite?); plan the deletion again");
        }
        for (long pos : p.getValue()) {
          if (pos < 0 || pos >= e.file.rowCount) {
            throw new IllegalArgumentException("Row position " + pos + " is outside data file " + p.getKey()
                + " of " + table.fullName() + " (" + e.file.rowCount + " rows)");
          }
        }
        BucketId key = e.bucketId();
        byBucket.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(p.getKey(), p.getValue());
        bucketOf.putIfAbsent(key, e);
      }
      List<IndexManifestEntry> current = latest.indexManifest == null ? List.of()
          : mf.readIndexManifest(latest.indexManifest);
      DeletionVectorIndex.Loader loader = new DeletionVectorIndex.Loader(table.io(), table.dir(), table.fullName());
      List<IndexManifestEntry> next = new ArrayList<>();
      Map<BucketId, Map<String, DeletionVector>> vectors = new LinkedHashMap<>();
      for (IndexManifestEntry e : current) {
        BucketId key = e.bucketId();
        if (!e.isDeletionVectors() || !byBucket.containsKey(key)) {
          next.add(e);
          continue;
        }
        Map<String, DeletionVector> bucket = vectors.computeIfAbsent(key, k -> new LinkedHashMap<>());
        for (DeletionVectorRange r : e.ranges) {
          if (!live.containsKey(r.dataFile)) continue; // its file is gone: the vector goes too
          DeletionVector dv = loader.load(new DeletionVectorIndex.Ref(e.fileName, r));
          DeletionVector had = bucket.get(r.dataFile);
          if (had == null) bucket.put(r.dataFile, dv);
          else had.merge(dv);
        }
      }
      for (Map.Entry<BucketId, Map<String, long[]>> b : byBucket.entrySet()) {
        Map<String, DeletionVector> bucket = vectors.computeIfAbsent(b.getKey(), k -> new LinkedHashMap<>());
        for (Map.Entry<String, long[]> f : b.getValue().entrySet()) {
          DeletionVector dv = bucket.computeIfAbsent(f.getKey(), k -> DeletionVector.empty(bitmap64));
          for (long pos : f.getValue()) dv.delete(pos);
        }
        List<Map.Entry<String, DeletionVector>> list = new ArrayList<>();
        for (Map.Entry<String, DeletionVector> v : bucket.entrySet()) {
          list.add(new AbstractMap.SimpleEntry<>(v.getKey(), v.getValue()));
        }
        DeletionVectorFile.Written w = DeletionVectorFile.write(list);
        String name = "index-" + writer + "-" + counter[0]++;
        written.add("index/" + name);
        try (OutputStream out = table.io().create(new Path(new Path(table.dir(), "index"), name), false)) {
          out.write(w.bytes);
        }
        ManifestEntry any = bucketOf.get(b.getKey());
        next.add(new IndexManifestEntry(FileKind.ADD, any.partition, any.bucket, IndexManifestEntry.DELETION_VECTORS,
            name, w.bytes.length, w.ranges.size(), w.ranges));
      }
      String manifest = mf.writeIndexManifest(next);
      written.add("manifest/" + manifest);
      return manifest;
    }, CommitKind.APPEND);
  }
}
