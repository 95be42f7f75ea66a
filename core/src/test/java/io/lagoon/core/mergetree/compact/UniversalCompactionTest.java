package io.lagoon.core.mergetree.compact;

import static io.lagoon.core.mergetree.compact.Metas.runs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.table.TableOptions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class UniversalCompactionTest {
  private static final int LEVELS = 6; // top level 5

  /** The picked run count and output level, or "none". */
  private static String pick(UniversalCompaction picker, List<LevelSortedRun> runs) {
    Optional<CompactUnit> u = picker.pick(LEVELS, runs);
    return u.map(x -> x.runs().size() + "->L" + x.outputLevel()).orElse("none");
  }

  @Test
  void fewerRunsThanTheTriggerAreLeftAlone() {
    UniversalCompaction p = new UniversalCompaction(200, 1, 3);
    // Even a huge amplification waits for the trigger.
    assertEquals("none", pick(p, runs(0, 1000, 5, 1)));
    assertEquals("none", pick(p, List.of()));
  }

  @Test
  void sizeAmplificationCompactsEverythingToTheTopLevel() {
    UniversalCompaction p = new UniversalCompaction(200, 1, 3);
    // newer runs 5 + 15 = 20 > 200% of 9: everything, even though the size ratio would not pick.
    assertEquals("3->L5", pick(p, runs(0, 5, 0, 15, 5, 9)));
    // 20 is exactly 200% of 10: not amplified (strictly more is needed), and nothing else applies.
    assertEquals("none", pick(p, runs(0, 5, 0, 15, 5, 10)));
    // The oldest run need not be on the top level; the output still is.
    assertEquals("3->L5", pick(p, runs(0, 5, 0, 15, 2, 9)));
  }

  @Test
  void sizeRatioTakesRunsWhileTheyAreNotMuchLargerThanWhatWasTaken() {
    UniversalCompaction p = new UniversalCompaction(200, 1, 3);
    // 10, 10, 10 then 30.3 < 1000: three runs, one level below the run left out (L4).
    assertEquals("3->L3", pick(p, runs(0, 10, 0, 10, 0, 10, 4, 1000, 5, 100000)));
    // The percentage is the compaction.size-ratio option: 100 * 1.01 < 110, but 100 * 1.10 >= 110.
    List<LevelSortedRun> r = runs(0, 100, 0, 110, 3, 100000, 4, 100000, 5, 10000000);
    assertEquals("none", pick(new UniversalCompaction(200, 1, 5), r));
    assertEquals("2->L2", pick(new UniversalCompaction(200, 10, 5), r));
  }

  @Test
  void aPickThatWouldLandOnLevelZeroTakesRunsUpToTheNextLevel() {
    UniversalCompaction p = new UniversalCompaction(200, 1, 3);
    // 10 + 10 are taken, the next run is on level 0: take it and the L3 run, and join L3.
    assertEquals("4->L3", pick(p, runs(0, 10, 0, 10, 0, 1000, 3, 5000, 5, 100000)));
    // Only level-0 runs left after the pick: everything goes to the top level.
    assertEquals("4->L5", pick(p, runs(0, 10, 0, 10, 0, 1000, 0, 2000)));
  }

  @Test
  void runCountAboveTheTriggerForcesAPickOfTheNewestRuns() {
    UniversalCompaction p = new UniversalCompaction(200, 1, 3);
    // No size ratio between any neighbours; 5 runs > 3: the newest 5 - 3 + 1 = 3 runs, to L2 - 1.
    assertEquals("3->L1", pick(p, runs(0, 1, 0, 100, 0, 10000, 2, 1000000, 5, 100000000)));
    // The forced pick keeps taking runs the size ratio admits: 302 <= (1 + 100 + 200) * 1.01.
    assertEquals("4->L4", pick(p, runs(0, 1, 0, 100, 0, 200, 2, 302, 5, 100000000)));
    // At exactly the trigger nothing is forced.
    assertEquals("none", pick(p, runs(0, 1, 2, 1000000, 5, 100000000)));
    // Only level-0 runs: the forced pick cannot stop on level 0, so all go to the top.
    assertEquals("4->L5", pick(p, runs(0, 1, 0, 100, 0, 10000, 0, 1000000)));
  }

  @Test
  void fullPickTakesEveryRunUnlessTheBucketIsOneTopLevelRun() {
    assertEquals(Optional.empty(), UniversalCompaction.pickFull(LEVELS, List.of()));
    assertEquals(Optional.empty(), UniversalCompaction.pickFull(LEVELS, runs(5, 100)));
    CompactUnit one = UniversalCompaction.pickFull(LEVELS, runs(3, 100)).orElseThrow();
    assertEquals(5, one.outputLevel());
    CompactUnit all = UniversalCompaction.pickFull(LEVELS, runs(0, 1, 0, 2, 5, 100)).orElseThrow();
    assertEquals(5, all.outputLevel());
    assertEquals(3, all.files().size());
  }

  @Test
  void optionsComeFromTheTable() {
    UniversalCompaction p = UniversalCompaction.of(new TableOptions(Map.of(
        TableOptions.NUM_SORTED_RUN_COMPACTION_TRIGGER, "2", TableOptions.MAX_SIZE_AMPLIFICATION_PERCENT, "50")));
    // Two runs reach the trigger; 6 > 50% of 10.
    assertEquals("2->L5", pick(p, runs(0, 6, 5, 10)));
    assertEquals("none", pick(p, runs(0, 5, 5, 10)));
    assertThrows(IllegalArgumentException.class, () -> p.pick(1, runs(0, 6, 0, 10)));
  }

  /** Whatever is picked: a prefix of the runs, never into level 0, above every run left out. */
  @Test
  void picksAreAlwaysAPrefixLandingBetweenLevels() {
    Random rnd = new Random(11);
    for (int round = 0; round < 2000; round++) {
      int l0 = rnd.nextInt(6);
      long[] pairs = new long[2 * (l0 + 5)];
      int n = 0;
      for (int i = 0; i < l0; i++) {
        pairs[n++] = 0;
        pairs[n++] = 1 + rnd.nextInt(1000);
      }
      for (int level = 1; level < LEVELS; level++) {
        if (rnd.nextBoolean()) {
          pairs[n++] = level;
          pairs[n++] = 1 + rnd.nextInt(100000);
        }
      }
      List<LevelSortedRun> r = runs(java.util.Arrays.copyOf(pairs, n));
      UniversalCompaction p = new UniversalCompaction(50 + rnd.nextInt(300), rnd.nextInt(20), 1 + rnd.nextInt(6));
      Optional<CompactUnit> u = p.pick(LEVELS, r);
      if (u.isEmpty()) continue;
      CompactUnit unit = u.get();
      int k = unit.runs().size();
      assertEquals(r.subList(0, k), unit.runs(), "round " + round);
      assertTrue(unit.outputLevel() >= 1, "round " + round);
      for (LevelSortedRun picked : unit.runs()) assertTrue(picked.level() <= unit.outputLevel(), "round " + round);
      if (k < r.size()) assertTrue(r.get(k).level() > unit.outputLevel(), "round " + round);
      else assertEquals(LEVELS - 1, unit.outputLevel(), "round " + round);
    }
  }
}
