package io.lagoon.core.mergetree.compact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.engine.KeyValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BucketCompactorTest {
  @TempDir java.nio.file.Path tmp;

  /** A large top-level run under three small level-0 files, one deleting key 2. */
  private List<DataFileMeta> bucket(KvTestTable t) throws IOException {
    List<KeyValue> big = new ArrayList<>();
    for (int id = 0; id < 3000; id++) big.add(t.kv(0, id, id, KeyValue.INSERT, (long) id * 7919 % 100003));
    List<DataFileMeta> files = new ArrayList<>();
    files.add(t.write(0, 5, big));
    files.add(t.write(0, 0, t.records(0, 5000, "1+10", "2-")));
    files.add(t.write(0, 0, t.records(0, 5010, "3+30")));
    files.add(t.write(0, 0, t.records(0, 5020, "1+11", "4+40")));
    return files;
  }

  private static long deletes(List<DataFileMeta> files) {
    long n = 0;
    for (DataFileMeta f : files) n += f.deleteRowCount;
    return n;
  }

  @Test
  void universalPickAboveOlderDataKeepsDeletesAndFullDropsThem() throws IOException {
    KvTestTable t = new KvTestTable(tmp, false, Map.of("num-sorted-run.compaction-trigger", "3",
        "compaction.size-ratio", "100", "compaction.max-size-amplification-percent", "10000"));
    List<DataFileMeta> files = bucket(t);
    List<String> expected = t.visibleFiles(files);

    CompactResult universal = BucketCompactor.compact(t.table, t.partition(0), 0, files, t.source, false).orElseThrow();
    assertEquals(3, universal.before().size(), "the three level-0 runs, not the large top run");
    assertEquals(1, universal.after().size());
    assertEquals(4, universal.after().get(0).level, "one level below the run left out");
    assertEquals(1L, deletes(universal.after()), "key 2 is still deleted in the top run below");
    t.readBack(0, universal.after().get(0));
    List<DataFileMeta> now = new ArrayList<>(files.subList(0, 1));
    now.addAll(universal.after());
    assertEquals(expected, t.visibleFiles(now));
    // Two runs now: below the trigger, the universal picker leaves the bucket alone.
    assertEquals(Optional.empty(), BucketCompactor.compact(t.table, t.partition(0), 0, now, t.source, false));

    CompactResult full = BucketCompactor.compact(t.table, t.partition(0), 0, now, t.source, true).orElseThrow();
    assertEquals(0L, deletes(full.after()));
    for (DataFileMeta f : full.newFiles()) t.readBack(0, f);
    full.after().forEach(f -> assertEquals(5, f.level));
    assertEquals(expected, t.visibleFiles(full.after()));
    assertTrue(expected.stream().noneMatch(s -> s.startsWith("2=")));
  }
}
