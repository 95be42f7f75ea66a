package io.lagoon.core.mergetree;

import static io.lagoon.core.mergetree.read.SectionTestFiles.KEY_TYPES;
import static io.lagoon.core.mergetree.read.SectionTestFiles.file;
import static io.lagoon.core.mergetree.read.SectionTestFiles.names;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.manifest.DataFileMeta;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeySectionsTest {

  @Test
  void disjointFilesAreSectionsOfTheirOwnInKeyOrder() {
    List<Section> s = KeySections.split(List.of(file("c", 20, 29), file("a", 0, 9), file("b", 10, 19)), KEY_TYPES);
    assertEquals(List.of(List.of(List.of("a")), List.of(List.of("b")), List.of(List.of("c"))), names(s));
  }

  @Test
  void overlappingFilesShareASectionAndSplitIntoSortedRuns() {
    // a [0,10] and b [5,15] overlap; c [11,20] overlaps b only, so it can follow a in one run.
    // d [30,40] touches nothing; e [40,45] shares key 40 with d (a shared bound is an overlap).
    List<Section> s = KeySections.split(List.of(file("a", 0, 10), file("b", 5, 15), file("c", 11, 20),
        file("d", 30, 40), file("e", 40, 45)), KEY_TYPES);
    assertEquals(List.of(
        List.of(List.of("a", "c"), List.of("b")),
        List.of(List.of("d"), List.of("e"))), names(s));
  }

  @Test
  void transitiveOverlapJoinsSections() {
    List<Section> s = KeySections.split(List.of(file("a", 0, 5), file("b", 5, 10), file("c", 10, 15)), KEY_TYPES);
    assertEquals(1, s.size());
    assertEquals(List.of(List.of("a", "c"), List.of("b")), names(s).get(0));
  }

  /** Random ranges: sections are disjoint and ascending, and every run is disjoint and ascending. */
  @Test
  void sectionsAndRunsKeepTheirInvariantsOnRandomFiles() {
    Random rnd = new Random(11);
    for (int round = 0; round < 200; round++) {
      List<DataFileMeta> files = new ArrayList<>();
      for (int i = 0; i < 1 + rnd.nextInt(12); i++) {
        int lo = rnd.nextInt(100);
        files.add(file("f" + i, lo, lo + rnd.nextInt(20)));
      }
      Collections.shuffle(files, rnd);
      List<Section> sections = KeySections.split(files, KEY_TYPES);
      int seen = 0;
      int prevMax = Integer.MIN_VALUE;
      for (Section s : sections) {
        int lo = Integer.MAX_VALUE;
        int hi = Integer.MIN_VALUE;
        for (List<DataFileMeta> run : s.runs()) {
          int last = Integer.MIN_VALUE;
          for (DataFileMeta f : run) {
            assertTrue(min(f) > last, "run files must be disjoint and ascending: " + s);
            last = max(f);
            lo = Math.min(lo, min(f));
            hi = Math.max(hi, max(f));
            seen++;
          }
        }
        assertTrue(lo > prevMax, "sections must not overlap: " + sections);
        prevMax = hi;
      }
      assertEquals(files.size(), seen);
    }
  }

  private static int min(DataFileMeta f) {
    return BinaryRows.deserialize(f.minKey, KEY_TYPES).getInt(0);
  }

  private static int max(DataFileMeta f) {
    return BinaryRows.deserialize(f.maxKey, KEY_TYPES).getInt(0);
  }
}
