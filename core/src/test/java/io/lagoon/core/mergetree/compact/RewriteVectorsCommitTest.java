package io.lagoon.core.mergetree.compact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.deletionvectors.BucketVectorChange;
import io.lagoon.core.deletionvectors.BucketVectors;
import io.lagoon.core.deletionvectors.DeletionVectorIndex;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.snapshot.Snapshot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit of a deletion-vector compaction ({@code RewriteFiles} with vector changes): it swaps the bucket's index file when the bucket is
 * as the compaction saw it, and is a conflict (nothing committed) when a concurrent commit moved
 * the bucket's files above level 0 or changed its vectors.
 */
class RewriteVectorsCommitTest {
  @TempDir java.nio.file.Path tmp;

  private KvTestTable table(String name) throws IOException {
    return new KvTestTable(tmp.resolve(name), false, Map.of("deletion-vectors.enabled", "true",
        "compaction.delete-ratio-threshold", "1"));
  }

  /** Ten rows on the top level, committed. */
  private static DataFileMeta committedTopFile(KvTestTable t) throws IOException {
    List<KeyValue> rows = new ArrayList<>();
    for (int id = 0; id < 10; id++) rows.add(t.kv(0, id, id, KeyValue.INSERT, (long) id));
    DataFileMeta top = t.write(0, 5, rows);
    t.append(0, top);
    return top;
  }

  /** Compacts a fresh level-0 file over the top file and returns what the write would commit. */
  private static Object[] compactOnce(KvTestTable t, DataFileMeta top, List<IndexManifestEntry> base)
      throws IOException {
    DataFileMeta fresh = t.write(0, 0, t.records(0, 1000, "1+100", "2+200"));
    t.append(0, fresh);
    BucketVectors v = new BucketVectors(t.partition(0), 0, base, false, t.table.io(), t.table.dir(), t.table.fullName());
    CompactResult r = BucketCompactor.compact(t.table, t.partition(0), 0, List.of(top, fresh), t.source,
        BucketCompactor.Mode.FORCE_UP_LEVEL0, v).orElseThrow();
    IndexManifestEntry written = v.write(t.table.io(), t.table.dir());
    BucketVectorChange change = new BucketVectorChange(t.partition(0), 0,
        BucketVectorChange.upperFiles(List.of(t.entry(0, top))), BucketVectorChange.indexFileNames(base), true, written);
    List<ManifestEntry> before = new ArrayList<>();
    for (DataFileMeta f : r.before()) before.add(t.entry(0, f));
    List<ManifestEntry> after = new ArrayList<>();
    for (DataFileMeta f : r.after()) after.add(t.entry(0, f));
    return new Object[] {before, after, change};
  }

  @SuppressWarnings("unchecked")
  @Test
  void anUnchangedBucketGetsItsNewVectors() throws IOException {
    KvTestTable t = table("ok");
    DataFileMeta top = committedTopFile(t);
    Object[] c = compactOnce(t, top, List.of());
    Snapshot s = t.table.newRewrite().replace((List<ManifestEntry>) c[0], (List<ManifestEntry>) c[1])
        .vectors(List.of((BucketVectorChange) c[2])).commit().orElseThrow();
    DeletionVectorIndex index = DeletionVectorIndex.of(t.table, s);
    assertEquals(1, index.size());
    DeletionVectorIndex.Ref ref = index.refOf(top.fileName);
    assertEquals(2L, (long) ref.range.cardinality, "keys 1 and 2 of the top file are marked");
  }

  @SuppressWarnings("unchecked")
  @Test
  void aConcurrentChangeAboveLevelZeroIsAConflict() throws IOException {
    KvTestTable t = table("race");
    DataFileMeta top = committedTopFile(t);
    Object[] c = compactOnce(t, top, List.of());
    // Meanwhile another writer's compaction put a file on level 3.
    DataFileMeta other = t.write(0, 3, t.records(0, 5000, "1+7"));
    t.table.newRewrite().replace(List.of(), List.of(t.entry(0, other))).commit();
    long before = t.table.snapshots().latestId().orElseThrow();
    CommitConflictException e = assertThrows(CommitConflictException.class, () -> t.table.newRewrite()
        .replace((List<ManifestEntry>) c[0], (List<ManifestEntry>) c[1]).vectors(List.of((BucketVectorChange) c[2]))
        .commit());
    assertTrue(e.getMessage().contains("Deletion-vector conflict"), e.getMessage());
    assertEquals(before, (long) t.table.snapshots().latestId().orElseThrow(), "nothing committed");
  }
}
