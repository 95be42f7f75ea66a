package io.lagoon.spark.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FilePackingTest {
  private static final long MB = 1 << 20;

  private static LagoonInputPartition.FileRange range(String path, long length) {
    return new LagoonInputPartition.FileRange(path, 0, length, length, null);
  }

  private static long load(LagoonInputPartition p, long openCost) {
    long n = 0;
    for (LagoonInputPartition.FileRange r : p.files()) n += r.length + openCost;
    return n;
  }

  /** Four large and eight small files: two balanced partitions, where filling in turn gives 2:1. */
  @Test
  void levelsOfOneTableSpreadEvenly() {
    List<LagoonInputPartition.FileRange> ranges = new ArrayList<>();
    for (int i = 0; i < 4; i++) ranges.add(range("big" + i, 4 * MB));
    for (int i = 0; i < 4; i++) ranges.add(range("mid" + i, (long) (1.6 * MB)));
    for (int i = 0; i < 4; i++) ranges.add(range("small" + i, MB / 2));
    long open = 4 * MB;
    long total = 0;
    for (LagoonInputPartition.FileRange r : ranges) total += r.length;
    long split = SplitSize.of(total, ranges.size(), 128 * MB, open, 2);
    LagoonInputPartition[] parts = FilePacking.pack(ranges, split, open);
    assertEquals(2, parts.length, "as many partitions as cores");
    long a = load(parts[0], open);
    long b = load(parts[1], open);
    assertTrue(Math.abs(a - b) <= MB, "balanced: " + a + " vs " + b);
  }

  @Test
  void everyRangeLandsOnceAndTheCountFollowsTheSplitSize() {
    Random rnd = new Random(3);
    for (int round = 0; round < 50; round++) {
      List<LagoonInputPartition.FileRange> ranges = new ArrayList<>();
      int n = 1 + rnd.nextInt(300);
      long total = 0;
      for (int i = 0; i < n; i++) {
        long len = 1 + rnd.nextInt(64 * (int) MB);
        total += len;
        ranges.add(range("f" + i, len));
      }
      long open = 4 * MB;
      long max = 128 * MB;
      LagoonInputPartition[] parts = FilePacking.pack(ranges, max, open);
      assertEquals(Math.max(1, Math.min(n, Math.round((total + n * open) / (double) max))), parts.length);
      Set<String> seen = new HashSet<>();
      for (LagoonInputPartition p : parts) {
        assertTrue(!p.files().isEmpty());
        for (LagoonInputPartition.FileRange r : p.files()) assertTrue(seen.add(r.path));
      }
      assertEquals(n, seen.size());
    }
    assertEquals(0, FilePacking.pack(List.of(), MB, MB).length);
  }

  @Test
  void splitSizeFollowsSparksRule() {
    // 100 MB in 10 files over 8 cores: (100 + 10 x 4) / 8 = 17.5 MB, below the 128 MB cap.
    assertEquals((100 * MB + 40 * MB) / 8, SplitSize.of(100 * MB, 10, 128 * MB, 4 * MB, 8));
    assertEquals(128 * MB, SplitSize.of(10_000 * MB, 100, 128 * MB, 4 * MB, 8), "capped");
    assertEquals(4 * MB, SplitSize.of(MB, 1, 128 * MB, 4 * MB, 8), "never below the open cost");
  }
}
