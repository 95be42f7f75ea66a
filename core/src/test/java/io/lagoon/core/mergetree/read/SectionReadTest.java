package io.lagoon.core.mergetree.read;

import io.lagoon.core.mergetree.Section;
import static io.lagoon.core.mergetree.read.SectionTestFiles.KEY_TYPES;
import static io.lagoon.core.mergetree.read.SectionTestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.mergetree.engine.MergeEngine;
import java.util.List;
import org.junit.jupiter.api.Test;

class SectionReadTest {

  private static Section single(int level, Long deletes) {
    return new Section(List.of(List.of(file("f", 0, 9, level, deletes))));
  }

  @Test
  void aCompactedFileWithoutRetractionsIsReadRawForEveryEngine() {
    for (MergeEngine e : MergeEngine.values()) assertTrue(SectionRead.canReadRaw(single(1, 0L), e), e.toString());
  }

  @Test
  void aLevelZeroFileIsRawOnlyForEnginesThatKeepWholeRecords() {
    assertTrue(SectionRead.canReadRaw(single(0, 0L), MergeEngine.DEDUPLICATE));
    assertTrue(SectionRead.canReadRaw(single(0, 0L), MergeEngine.FIRST_ROW));
    assertFalse(SectionRead.canReadRaw(single(0, 0L), MergeEngine.PARTIAL_UPDATE));
    assertFalse(SectionRead.canReadRaw(single(0, 0L), MergeEngine.AGGREGATION));
  }

  @Test
  void retractionsOrAnUnknownRetractionCountForceAMerge() {
    assertFalse(SectionRead.canReadRaw(single(3, 1L), MergeEngine.DEDUPLICATE));
    assertFalse(SectionRead.canReadRaw(single(3, null), MergeEngine.DEDUPLICATE));
  }

  @Test
  void overlappingFilesAreMergedAndLoneFilesBesideThemAreNot() {
    List<SectionRead> plan = SectionRead.plan(List.of(file("a", 0, 10), file("b", 5, 15), file("c", 20, 30, 2, 0L),
        file("d", 40, 50, 0, 2L)), KEY_TYPES, MergeEngine.DEDUPLICATE);
    assertEquals(3, plan.size());
    assertFalse(plan.get(0).raw);
    assertEquals(2, plan.get(0).section.files().size());
    assertTrue(plan.get(1).raw);
    assertFalse(plan.get(2).raw);
  }
}
