package io.lagoon.core.mergetree.compact;

import static io.lagoon.core.mergetree.compact.Metas.KEYS;
import static io.lagoon.core.mergetree.compact.Metas.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.manifest.DataFileMeta;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BucketRunsTest {
  private static List<String> names(List<LevelSortedRun> runs) {
    List<String> out = new ArrayList<>();
    for (LevelSortedRun r : runs) {
      StringBuilder s = new StringBuilder("L" + r.level() + ":");
      for (DataFileMeta f : r.run().files()) s.append(f.fileName).append(' ');
      out.add(s.toString().trim());
    }
    return out;
  }

  @Test
  void levelZeroFilesAreRunsNewestFirstThenOneRunPerLevelInKeyOrder() {
    List<DataFileMeta> files = List.of(
        file("old0", 0, 10, 1, 50, 10, 19),
        file("b3", 3, 10, 40, 60, 1, 5),
        file("new0", 0, 10, 1, 50, 30, 39),
        file("a3", 3, 10, 1, 30, 1, 5),
        file("mid0", 0, 10, 1, 50, 20, 29),
        file("x1", 1, 10, 5, 5, 6, 9));
    List<LevelSortedRun> runs = BucketRuns.of(files, 6, KEYS);
    assertEquals(List.of("L0:new0", "L0:mid0", "L0:old0", "L1:x1", "L3:a3 b3"), names(runs));
    assertEquals(20, runs.get(4).run().totalSize());
    assertEquals(3, BucketRuns.highestLevel(runs));
    assertEquals(-1, BucketRuns.highestLevel(List.of()));
  }

  @Test
  void corruptBucketsAreRefused() {
    IllegalStateException overlap = assertThrows(IllegalStateException.class, () -> BucketRuns.of(List.of(
        file("a", 2, 10, 1, 30, 1, 1), file("b", 2, 10, 30, 40, 2, 2)), 6, KEYS));
    assertTrue(overlap.getMessage().contains("overlap"), overlap.getMessage());
    IllegalStateException tooHigh = assertThrows(IllegalStateException.class,
        () -> BucketRuns.of(List.of(file("a", 6, 10, 1, 3, 1, 1)), 6, KEYS));
    assertTrue(tooHigh.getMessage().contains("outside 0..5"), tooHigh.getMessage());
  }

  @Test
  void filesAboveTheConfiguredLevelsRaiseTheLevelCount() {
    assertEquals(6, BucketRuns.numLevels(List.of(file("a", 2, 10, 1, 3, 1, 1)), 6));
    assertEquals(8, BucketRuns.numLevels(List.of(file("a", 7, 10, 1, 3, 1, 1)), 4));
    assertEquals(4, BucketRuns.numLevels(List.of(), 4));
  }
}
