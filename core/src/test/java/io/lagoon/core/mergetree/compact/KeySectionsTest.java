package io.lagoon.core.mergetree.compact;

import static io.lagoon.core.mergetree.compact.Metas.KEYS;
import static io.lagoon.core.mergetree.compact.Metas.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.manifest.DataFileMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeySectionsTest {
  private static DataFileMeta f(String name, int min, int max) {
    return file(name, 0, 1, min, max, 0, 0);
  }

  /** Sections as "run|run" strings, runs as space-separated names. */
  private static List<String> describe(List<List<SortedRun>> sections) {
    List<String> out = new ArrayList<>();
    for (List<SortedRun> section : sections) {
      List<String> runs = new ArrayList<>();
      for (SortedRun r : section) {
        StringBuilder s = new StringBuilder();
        for (DataFileMeta x : r.files()) s.append(s.length() == 0 ? "" : " ").append(x.fileName);
        runs.add(s.toString());
      }
      runs.sort(null);
      out.add(String.join("|", runs));
    }
    return out;
  }

  @Test
  void overlappingFilesShareASectionAndDisjointOnesDoNot() {
    List<DataFileMeta> files = List.of(f("c", 10, 12), f("a", 1, 5), f("b", 3, 8), f("d", 6, 7),
        f("e", 13, 20), f("g", 20, 25), f("h", 30, 31));
    // a-b-d overlap (d fits after a in one run); c alone; e and g touch at key 20; h alone.
    assertEquals(List.of("a d|b", "c", "e|g", "h"), describe(KeySections.of(files, KEYS)));
  }

  @Test
  void everySectionIsAMinimalSetOfSortedRuns() {
    Random rnd = new Random(5);
    for (int round = 0; round < 300; round++) {
      List<DataFileMeta> files = new ArrayList<>();
      for (int i = 0; i < 1 + rnd.nextInt(12); i++) {
        int min = rnd.nextInt(60);
        files.add(f("f" + i, min, min + rnd.nextInt(10)));
      }
      List<List<SortedRun>> sections = KeySections.of(files, KEYS);
      int total = 0;
      int prevMax = Integer.MIN_VALUE;
      for (List<SortedRun> section : sections) {
        int lo = Integer.MAX_VALUE;
        int hi = Integer.MIN_VALUE;
        for (SortedRun run : section) {
          int last = Integer.MIN_VALUE;
          for (DataFileMeta x : run.files()) {
            int min = KEYS.minKey(x).getInt(0);
            int max = KEYS.maxKey(x).getInt(0);
            assertTrue(min > last, "round " + round + ": run not sorted and disjoint");
            last = max;
            lo = Math.min(lo, min);
            hi = Math.max(hi, max);
            total++;
          }
        }
        assertTrue(lo > prevMax, "round " + round + ": sections overlap or are out of order");
        prevMax = hi;
        // Minimal: as many runs as the most files covering one key.
        int depth = 0;
        for (int k = lo; k <= hi; k++) {
          int d = 0;
          for (SortedRun run : section) {
            for (DataFileMeta x : run.files()) {
              if (KEYS.minKey(x).getInt(0) <= k && k <= KEYS.maxKey(x).getInt(0)) d++;
            }
          }
          depth = Math.max(depth, d);
        }
        assertEquals(depth, section.size(), "round " + round);
      }
      assertEquals(files.size(), total, "round " + round);
    }
  }
}
