package io.lagoon.core.mergetree.compact;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.engine.KeyValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes random level-0 files into a bucket and compacts random picks again and again (any
 * prefix of the runs, with the picker's output-level rule, or a full compaction); after every
 * step the merged view of the live files must equal the merged view of everything ever written.
 */
class CompactionModelTest {
  @TempDir java.nio.file.Path tmp;

  @Test
  void deduplicateWithDeletes() throws IOException {
    run(Map.of(), 1);
  }

  @Test
  void aggregationSumWithRetractions() throws IOException {
    run(Map.of("merge-engine", "aggregation", "fields.v.aggregate-function", "sum", "target-file-size", "2 kb"), 2);
  }

  private void run(Map<String, String> options, long seed) throws IOException {
    KvTestTable t = new KvTestTable(tmp, false, options);
    int numLevels = t.table.options().numLevels();
    Path bucketDir = t.bucketDir(t.partition(0));
    Random rnd = new Random(seed);
    List<List<KeyValue>> written = new ArrayList<>();
    List<DataFileMeta> live = new ArrayList<>();
    long seq = 0;
    // Retractions only for keys written before: a key's lone retraction is passed through
    // unmerged and dropped (as Paimon does), so whether it counts would depend on grouping.
    java.util.Set<Integer> added = new java.util.HashSet<>();
    for (int step = 0; step < 14; step++) {
      for (int n = rnd.nextInt(3); n >= 0; n--) {
        TreeMap<Integer, KeyValue> recs = new TreeMap<>();
        for (int i = 0; i < 1 + rnd.nextInt(12); i++) {
          int id = rnd.nextInt(30);
          byte kind = rnd.nextInt(5) == 0 && added.contains(id) ? KeyValue.DELETE : KeyValue.INSERT;
          recs.put(id, t.kv(0, id, seq++, kind, (long) rnd.nextInt(100)));
        }
        for (KeyValue kv : recs.values()) if (kv.isAdd()) added.add(kv.key().getInt(0));
        List<KeyValue> records = new ArrayList<>(recs.values());
        written.add(records);
        live.add(t.write(0, 0, records));
      }
      List<LevelSortedRun> runs = BucketRuns.of(live, numLevels, FileKeys.of(t.table.schema()));
      CompactUnit unit = rnd.nextInt(4) == 0 ? UniversalCompaction.pickFull(numLevels, runs).orElse(null)
          : UniversalCompaction.unitOf(numLevels - 1, runs, 1 + rnd.nextInt(runs.size()));
      if (unit == null) continue;
      boolean dropDelete = unit.outputLevel() >= BucketRuns.highestLevel(runs);
      CompactResult r = new CompactRewriter(t.table, bucketDir, t.source)
          .rewrite(unit.outputLevel(), dropDelete, unit.files());
      for (DataFileMeta f : r.newFiles()) t.readBack(0, f);
      live.removeIf(f -> r.before().stream().anyMatch(b -> b.fileName.equals(f.fileName)));
      live.addAll(r.after());
      String where = "step " + step + " " + unit;
      assertEquals(t.visible(written), t.visibleFiles(live), where);
      if (dropDelete) {
        for (DataFileMeta f : r.newFiles()) assertEquals(0L, f.deleteRowCount, where);
      }
    }
    // The runs stay well formed to the end (BucketRuns refuses overlapping levels).
    BucketRuns.of(live, numLevels, FileKeys.of(t.table.schema()));
    assertEquals(t.source.opened, t.source.closed);
  }
}
