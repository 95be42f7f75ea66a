package io.lagoon.core.deletionvectors;

import io.lagoon.core.commit.CommitBase;
import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.manifest.BucketId;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.DataFilePaths;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.hadoop.fs.Path;

/**
 * The one place a snapshot's deletion-vector index changes, for one commit attempt: it starts
 * from the base snapshot's index entries, takes the changes of the operation (rows deleted by
 * position, a compaction's new vectors for its buckets, partitions an overwrite replaces), writes
 * one new index file per bucket whose vectors changed (a bucket's vectors are kept together, as
 * Paimon keeps them) and the new index manifest. Entries of other index types pass through, or
 * are swapped by the maintainer of their type ({@link #swapOthers}: dynamic buckets' HASH files).
 */
public final class DeletionVectorMaintainer {
  private final FileStoreTable table;
  private final CommitBase base;
  private final List<Path> written;
  /** The index entries of the next snapshot, by bucket for vectors; others in order. */
  private final Map<BucketId, List<IndexManifestEntry>> vectors = new LinkedHashMap<>();
  private final List<IndexManifestEntry> others = new ArrayList<>();
  private boolean changed;

  /**
   * @param written collects the files this attempt writes (deleted if it is not published)
   */
  public DeletionVectorMaintainer(CommitBase base, List<Path> written) throws IOException {
    this.table = base.table();
    this.base = base;
    this.written = written;
    for (IndexManifestEntry e : base.index()) {
      if (e.isDeletionVectors()) vectors.computeIfAbsent(e.bucketId(), b -> new ArrayList<>()).add(e);
      else others.add(e);
    }
  }

  /** Drops the vectors of every partition {@code partitions} selects (their files are all replaced). */
  public void dropPartitions(Predicate<byte[]> partitions) {
    changed |= vectors.keySet().removeIf(b -> partitions.test(b.partition));
  }

  /**
   * Merges deleted row positions into the vectors of their data files; every bucket touched gets
   * a new index file with all of its vectors, from which vectors of files no longer live go.
   *
   * @param positions data file name to row positions, each file live in the base snapshot
   * @throws CommitConflictException when a file is no longer live (a compaction or overwrite
   *     removed it: its rows must be looked up again)
   * @throws IllegalArgumentException when a position lies outside its file
   */
  public void deletePositions(Map<String, long[]> positions) throws IOException {
    deletePositions(positions, false);
  }

  /**
   * @param exclusive the statement replaces the rows it deletes (UPDATE, MERGE): a row another
   *     commit deleted meanwhile is a conflict, as both would then have written its new version
   */
  public void deletePositions(Map<String, long[]> positions, boolean exclusive) throws IOException {
    if (positions.isEmpty()) return;
    Map<String, ManifestEntry> live = new HashMap<>();
    for (ManifestEntry e : base.live()) live.put(e.file.fileName, e);
    Map<BucketId, Map<String, long[]>> byBucket = new LinkedHashMap<>();
    Map<BucketId, ManifestEntry> anyOf = new HashMap<>();
    for (Map.Entry<String, long[]> p : positions.entrySet()) {
      ManifestEntry e = live.get(p.getKey());
      if (e == null) {
        throw new CommitConflictException("Data file " + p.getKey() + " is not live in snapshot "
            + base.snapshot().map(s -> s.id).orElse(0L) + " of " + table.fullName()
            + " (removed by a concurrent compaction or overwrite); its rows must be looked up again");
      }
      for (long pos : p.getValue()) {
        if (pos < 0 || pos >= e.file.rowCount) {
          throw new IllegalArgumentException("Row position " + pos + " is outside data file " + p.getKey()
              + " of " + table.fullName() + " (" + e.file.rowCount + " rows)");
        }
      }
      byBucket.computeIfAbsent(e.bucketId(), k -> new LinkedHashMap<>()).put(p.getKey(), p.getValue());
      anyOf.putIfAbsent(e.bucketId(), e);
    }
    DeletionVectorIndex.Loader loader = new DeletionVectorIndex.Loader(table.io(), table.dir(), table.fullName());
    boolean bitmap64 = table.options().deletionVectorsBitmap64();
    for (Map.Entry<BucketId, Map<String, long[]>> b : byBucket.entrySet()) {
      Map<String, DeletionVector> bucket = new LinkedHashMap<>();
      for (IndexManifestEntry e : vectors.getOrDefault(b.getKey(), List.of())) {
        for (DeletionVectorRange r : e.ranges) {
          if (!live.containsKey(r.dataFile)) continue; // its file is gone: the vector goes too
          DeletionVector dv = loader.load(new DeletionVectorIndex.Ref(e.fileName, r));
          DeletionVector had = bucket.get(r.dataFile);
          if (had == null) bucket.put(r.dataFile, dv);
          else had.merge(dv);
        }
      }
      for (Map.Entry<String, long[]> f : b.getValue().entrySet()) {
        DeletionVector dv = bucket.computeIfAbsent(f.getKey(), k -> DeletionVector.empty(bitmap64));
        for (long pos : f.getValue()) {
          if (exclusive && dv.isDeleted(pos)) {
            throw new CommitConflictException("Row conflict on " + table.fullName() + ": row " + pos + " of data file "
                + f.getKey() + " was deleted or updated by a concurrent commit; the statement must be run again");
          }
          dv.delete(pos);
        }
      }
      ManifestEntry any = anyOf.get(b.getKey());
      List<IndexManifestEntry> entries = new ArrayList<>();
      entries.add(writeIndexFile(any.partition, any.bucket, bucket));
      vectors.put(b.getKey(), entries);
      changed = true;
    }
  }

  /**
   * Applies the vector changes of a compaction, after checking each compacted bucket is as the
   * compaction saw it: the same files above level 0 and the same index files. Otherwise a
   * concurrent compaction moved records this one looked up, and committing both could leave a key
   * live twice.
   *
   * @throws CommitConflictException when a bucket changed since the compaction read it
   */
  public void applyCompaction(List<BucketVectorChange> changes) throws IOException {
    if (changes.isEmpty()) return;
    Map<BucketId, Map<String, Integer>> upper = new HashMap<>();
    for (BucketVectorChange c : changes) upper.put(c.bucketId(), new TreeMap<>());
    for (ManifestEntry e : base.live()) {
      Map<String, Integer> files = e.file.level > 0 ? upper.get(e.bucketId()) : null;
      if (files != null) files.put(e.file.fileName, e.file.level);
    }
    for (BucketVectorChange c : changes) {
      if (!upper.get(c.bucketId()).equals(c.upperFiles)
          || !BucketVectorChange.indexFileNames(vectors.getOrDefault(c.bucketId(), List.of())).equals(c.baseIndexFiles)) {
        throw new CommitConflictException("Deletion-vector conflict on " + table.fullName() + ": a concurrent "
            + "commit changed " + c.bucketId() + " while it was being compacted; the compaction must be redone");
      }
    }
    for (BucketVectorChange c : changes) {
      if (!c.replaces) continue;
      vectors.remove(c.bucketId());
      if (c.newEntry != null) vectors.put(c.bucketId(), new ArrayList<>(List.of(c.newEntry)));
      changed = true;
    }
  }

  /**
   * Where each data file's vector is in an index, as {@code index-file@offset} (files without a
   * vector are left out): what a rewrite of append files read, compared at commit.
   */
  public static Map<String, String> vectorRefs(List<IndexManifestEntry> index, Set<String> dataFiles) {
    Map<String, String> out = new TreeMap<>();
    for (IndexManifestEntry e : index) {
      if (!e.isDeletionVectors()) continue;
      for (DeletionVectorRange r : e.ranges) if (dataFiles.contains(r.dataFile)) out.put(r.dataFile, DeletionVectorIndex.Ref.key(e.fileName, r.offset));
    }
    return out;
  }

  /**
   * Drops the vectors of append files a compaction rewrote without their deleted rows, after
   * checking each file's vector is the one the compaction read: rows deleted since would come
   * back in the rewrite.
   *
   * @param read data file to the vector it had when read ({@link #vectorRefs}); every rewritten file is a key
   * @throws CommitConflictException when a file's vector changed since
   */
  public void dropRewrittenAppendFiles(Map<String, String> read) throws IOException {
    List<IndexManifestEntry> current = new ArrayList<>();
    for (List<IndexManifestEntry> b : vectors.values()) current.addAll(b);
    Map<String, String> now = vectorRefs(current, read.keySet());
    for (Map.Entry<String, String> e : read.entrySet()) {
      if (!java.util.Objects.equals(e.getValue(), now.get(e.getKey()))) {
        throw new CommitConflictException("Deletion-vector conflict on " + table.fullName() + ": rows of " + e.getKey()
            + " were deleted by a concurrent commit while it was being compacted; the compaction must be redone");
      }
    }
    dropFiles(read.keySet());
  }

  /** Drops the vectors of data files the change removes (copy-on-write rewrites them away). */
  public void dropFiles(Set<String> dataFiles) throws IOException {
    if (dataFiles.isEmpty()) return;
    Set<BucketId> touched = new HashSet<>();
    for (Map.Entry<BucketId, List<IndexManifestEntry>> b : vectors.entrySet()) {
      for (IndexManifestEntry e : b.getValue()) {
        for (DeletionVectorRange r : e.ranges) if (dataFiles.contains(r.dataFile)) touched.add(b.getKey());
      }
    }
    if (touched.isEmpty()) return;
    DeletionVectorIndex.Loader loader = new DeletionVectorIndex.Loader(table.io(), table.dir(), table.fullName());
    for (BucketId b : touched) {
      Map<String, DeletionVector> kept = new LinkedHashMap<>();
      for (IndexManifestEntry e : vectors.get(b)) {
        for (DeletionVectorRange r : e.ranges) {
          if (!dataFiles.contains(r.dataFile)) kept.put(r.dataFile, loader.load(new DeletionVectorIndex.Ref(e.fileName, r)));
        }
      }
      vectors.remove(b);
      if (!kept.isEmpty()) vectors.put(b, new ArrayList<>(List.of(writeIndexFile(b.partition, b.bucket, kept))));
      changed = true;
    }
  }

  /** Replaces index entries of another type (planned elsewhere, on the same base). */
  public void swapOthers(List<IndexManifestEntry> removed, List<IndexManifestEntry> added) {
    if (removed.isEmpty() && added.isEmpty()) return;
    Set<String> gone = new HashSet<>();
    for (IndexManifestEntry e : removed) gone.add(e.fileName);
    others.removeIf(e -> gone.contains(e.fileName));
    others.addAll(added);
    changed = true;
  }

  /** The next snapshot's index manifest: the base one when nothing changed, null when nothing is left. */
  public String indexManifest() throws IOException {
    if (!changed) return base.indexManifest();
    List<IndexManifestEntry> next = new ArrayList<>(others);
    for (List<IndexManifestEntry> b : vectors.values()) next.addAll(b);
    if (next.isEmpty()) return null;
    String manifest = table.manifests().writeIndexManifest(next);
    written.add(table.manifests().path(manifest));
    return manifest;
  }

  private IndexManifestEntry writeIndexFile(byte[] partition, int bucket, Map<String, DeletionVector> byFile)
      throws IOException {
    List<Map.Entry<String, DeletionVector>> list = new ArrayList<>();
    for (Map.Entry<String, DeletionVector> v : byFile.entrySet()) {
      if (!v.getValue().isEmpty()) list.add(new AbstractMap.SimpleEntry<>(v.getKey(), v.getValue()));
    }
    DeletionVectorFile.Written w = DeletionVectorFile.write(list);
    String name = DataFilePaths.newIndexFileName();
    Path path = table.paths().indexFile(name);
    written.add(path);
    try (OutputStream out = table.io().create(path, false)) {
      out.write(w.bytes);
    }
    return new IndexManifestEntry(FileKind.ADD, partition, bucket, IndexManifestEntry.DELETION_VECTORS, name,
        w.bytes.length, w.ranges.size(), w.ranges);
  }
}
