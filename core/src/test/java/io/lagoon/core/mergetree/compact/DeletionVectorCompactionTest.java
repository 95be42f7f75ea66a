package io.lagoon.core.mergetree.compact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.deletionvectors.BucketVectors;
import io.lagoon.core.deletionvectors.DeletionVector;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.mergetree.engine.KeyValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.lagoon.core.mergetree.CloseableIterator;
import io.lagoon.core.mergetree.KeyValueSource;
import java.util.Iterator;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction in deletion-vector mode at the level of one bucket: level-0 keys are looked up in
 * the runs above, the live record found is folded into the merge and its position marked, rows
 * already marked are never found again, retractions only mark, and a full compaction leaves no
 * vector.
 */
class DeletionVectorCompactionTest {
  @TempDir java.nio.file.Path tmp;

  private static long value(List<KeyValue> records, int id) {
    for (KeyValue kv : records) if (kv.key().getInt(0) == id) return kv.value().getLong(1);
    throw new AssertionError("no record for id " + id + " in " + records);
  }

  private static List<Long> positions(DeletionVector dv, long rows) {
    List<Long> out = new ArrayList<>();
    for (long p = 0; p < rows; p++) if (dv.isDeleted(p)) out.add(p);
    return out;
  }

  private BucketVectors vectors(KvTestTable t, List<IndexManifestEntry> base) {
    return new BucketVectors(t.partition(0), 0, base, false, t.table.io(), t.table.dir(), t.table.fullName());
  }

  /**
   * Two writers that start from the same snapshot give a bucket's records overlapping sequence
   * numbers, so a level-0 record can be older than the live record above that another writer
   * pushed up first. The newer (above) one must win and stay where it is, unmarked; before, the
   * keys-only looked-up record was written out in its place, value columns and all null.
   */
  @Test
  void aNewerRecordAboveWinsOverAnOlderOneOnLevelZero() throws IOException {
    KvTestTable t = new KvTestTable(tmp, false, Map.of("deletion-vectors.enabled", "true"));
    DataFileMeta top = t.write(0, 5, t.records(0, 50, "5+500", "7+700"));
    DataFileMeta older = t.write(0, 0, t.records(0, 10, "5+1", "6+1", "7+1"));
    BucketVectors v = vectors(t, List.of());
    KeyValueSource keysOnlyNulls = new KeyValueSource() {
      @Override
      public CloseableIterator<KeyValue> open(Path bucketDir, DataFileMeta file) {
        return t.source.open(bucketDir, file);
      }

      @Override
      public KeyValueSource keysOnly() {
        return (dir, file) -> {
          List<KeyValue> stripped = new ArrayList<>();
          for (KeyValue kv : t.source.records(file.fileName)) {
            stripped.add(new KeyValue(kv.key(), kv.sequence(), kv.rowKind(), new GenericInternalRow(2)));
          }
          Iterator<KeyValue> it = stripped.iterator();
          return new CloseableIterator<>() {
            public boolean hasNext() { return it.hasNext(); }
            public KeyValue next() { return it.next(); }
            public void close() {}
          };
        };
      }
    };

    CompactResult r = BucketCompactor.compact(t.table, t.partition(0), 0, List.of(top, older), keysOnlyNulls,
        BucketCompactor.Mode.FORCE_UP_LEVEL0, v).orElseThrow();

    List<KeyValue> written = t.readBack(0, r.after().get(0));
    assertEquals(1, written.size(), "only key 6 is written: " + written);
    assertEquals(1, value(written, 6));
    assertEquals(null, v.of(top.fileName), "the newer rows above stay live");
  }

  @Test
  void aggregationFoldsTheLookedUpRowAndMarksIt() throws IOException {
    // A threshold of 1 keeps files with marked rows in place, so the vectors can be followed.
    KvTestTable t = new KvTestTable(tmp, false, Map.of("deletion-vectors.enabled", "true",
        "merge-engine", "aggregation", "fields.v.aggregate-function", "sum", "compaction.delete-ratio-threshold", "1"));
    List<KeyValue> base = new ArrayList<>();
    for (int id = 0; id < 100; id++) base.add(t.kv(0, id, id, KeyValue.INSERT, 1L));
    DataFileMeta top = t.write(0, 5, base);
    DataFileMeta a = t.write(0, 0, t.records(0, 1000, "5+10", "50+10", "200+10"));
    BucketVectors v = vectors(t, List.of());

    CompactResult first = BucketCompactor.compact(t.table, t.partition(0), 0, List.of(top, a), t.source,
        BucketCompactor.Mode.FORCE_UP_LEVEL0, v).orElseThrow();
    assertEquals(List.of(a), first.before(), "only the level-0 file is compacted; the top run stays");
    DataFileMeta mid = first.after().get(0);
    assertEquals(4, mid.level);
    List<KeyValue> midRows = t.readBack(0, mid);
    assertEquals(11, value(midRows, 5), "the top row's 1 is folded into the new row");
    assertEquals(11, value(midRows, 50));
    assertEquals(10, value(midRows, 200), "a key nowhere above keeps its own value");
    assertEquals(List.of(5L, 50L), positions(v.of(top.fileName), 100), "the superseded rows are marked");
    assertTrue(v.changed());

    // Next write: key 5 now lives on level 4 (live) and on level 5 (marked): only level 4 counts.
    DataFileMeta b = t.write(0, 0, t.records(0, 2000, "5+100", "60+1"));
    CompactResult second = BucketCompactor.compact(t.table, t.partition(0), 0, List.of(top, mid, b), t.source,
        BucketCompactor.Mode.FORCE_UP_LEVEL0, v).orElseThrow();
    assertEquals(List.of(b), second.before());
    List<KeyValue> upper = t.readBack(0, second.after().get(0));
    assertEquals(111, value(upper, 5));
    assertEquals(2, value(upper, 60));
    assertEquals(List.of(0L), positions(v.of(mid.fileName), mid.rowCount), "key 5's row on level 4 is marked");
    assertEquals(List.of(5L, 50L, 60L), positions(v.of(top.fileName), 100));

    // The vectors survive a write and a reload from the index file.
    IndexManifestEntry entry = v.write(t.table.io(), t.table.dir());
    BucketVectors reloaded = vectors(t, List.of(entry));
    assertEquals(List.of(5L, 50L, 60L), positions(reloaded.of(top.fileName), 100));
    assertEquals(List.of(0L), positions(reloaded.of(mid.fileName), mid.rowCount));

    // A full compaction reads every file without its marked rows: each key once, no vector left.
    CompactResult full = BucketCompactor.compact(t.table, t.partition(0), 0,
        List.of(top, mid, second.after().get(0)), t.source, BucketCompactor.Mode.FULL, reloaded).orElseThrow();
    List<KeyValue> all = new ArrayList<>();
    for (DataFileMeta f : full.newFiles()) all.addAll(t.readBack(0, f));
    assertEquals(101, all.size(), "ids 0..99 and 200, each once");
    assertEquals(111, value(all, 5));
    assertEquals(11, value(all, 50));
    assertEquals(2, value(all, 60));
    assertEquals(1, value(all, 7));
    assertNull(reloaded.of(top.fileName));
    assertNull(reloaded.write(t.table.io(), t.table.dir()), "no vector is left to write");
  }

  @Test
  void retractionsMarkTheOlderRowAndAreNotStored() throws IOException {
    KvTestTable t = new KvTestTable(tmp, false, Map.of("deletion-vectors.enabled", "true",
        "compaction.delete-ratio-threshold", "1"));
    DataFileMeta top = t.write(0, 5, t.records(0, 0, "1+1", "2+2", "3+3", "4+4"));
    DataFileMeta a = t.write(0, 0, t.records(0, 100, "2-", "3+30", "9-"));
    BucketVectors v = vectors(t, List.of());
    CompactResult r = BucketCompactor.compact(t.table, t.partition(0), 0, List.of(top, a), t.source,
        BucketCompactor.Mode.FORCE_UP_LEVEL0, v).orElseThrow();
    List<KeyValue> out = new ArrayList<>();
    for (DataFileMeta f : r.newFiles()) {
      assertEquals(0L, (long) f.deleteRowCount, "no retraction is stored above level 0");
      out.addAll(t.readBack(0, f));
    }
    assertEquals(1, out.size(), "only key 3's new row is written: " + out);
    assertEquals(30, value(out, 3));
    assertEquals(List.of(1L, 2L), positions(v.of(top.fileName), 4), "keys 2 and 3 are marked in the top file");
  }

  @Test
  void fullCompactionOfOneTopRunRewritesOnlyFilesWithVectors() throws IOException {
    KvTestTable t = new KvTestTable(tmp, false, Map.of("deletion-vectors.enabled", "true"));
    DataFileMeta low = t.write(0, 5, t.records(0, 0, "1+1", "2+2"));
    DataFileMeta high = t.write(0, 5, t.records(0, 10, "5+5", "6+6"));
    BucketVectors v = vectors(t, List.of());
    v.delete(high.fileName, 0);
    CompactResult r = BucketCompactor.compact(t.table, t.partition(0), 0, List.of(low, high), t.source,
        BucketCompactor.Mode.FULL, v).orElseThrow();
    assertEquals(List.of(high), r.before(), "the file without a vector stays as it is");
    List<KeyValue> out = t.readBack(0, r.after().get(0));
    assertEquals(1, out.size());
    assertEquals(6, value(out, 6));
    assertNull(v.of(high.fileName));
    assertFalse(BucketCompactor.compact(t.table, t.partition(0), 0, List.of(low, r.after().get(0)), t.source,
        BucketCompactor.Mode.FULL, v).isPresent(), "nothing left to do");
  }

  /** A file whose vector marks more than compaction.delete-ratio-threshold of its rows is rewritten in place. */
  @Test
  void mostlyDeletedFilesAreRewrittenInPlace() throws IOException {
    for (String threshold : new String[] {"0.2", "0.5"}) {
      java.nio.file.Path dir = tmp.resolve("t" + threshold);
      KvTestTable t = new KvTestTable(dir, false, Map.of("deletion-vectors.enabled", "true",
          "compaction.delete-ratio-threshold", threshold));
      List<KeyValue> rows = new ArrayList<>();
      for (int id = 0; id < 10; id++) rows.add(t.kv(0, id, id, KeyValue.INSERT, (long) id));
      DataFileMeta top = t.write(0, 5, rows);
      DataFileMeta fresh = t.write(0, 0, t.records(0, 100, "100+1"));
      BucketVectors v = vectors(t, List.of());
      for (long p = 0; p < 3; p++) v.delete(top.fileName, p);
      CompactResult r = BucketCompactor.compact(t.table, t.partition(0), 0, List.of(top, fresh), t.source,
          BucketCompactor.Mode.FORCE_UP_LEVEL0, v).orElseThrow();
      if (threshold.equals("0.2")) {
        assertTrue(r.before().contains(top), "3 of 10 rows marked is above 0.2: " + r);
        DataFileMeta rewritten = r.after().stream().filter(f -> f.level == 5).findFirst().orElseThrow();
        assertEquals(7, rewritten.rowCount);
        assertEquals(7, t.readBack(0, rewritten).size());
        assertNull(v.of(top.fileName));
      } else {
        assertFalse(r.before().contains(top), "3 of 10 is below 0.5: " + r);
        assertEquals(3, v.of(top.fileName).cardinality());
      }
    }
  }
}
