package io.lagoon.core.mergetree.compact;

import io.lagoon.core.table.TableOptions;
import java.util.List;
import java.util.Optional;

/**
 * Picks which sorted runs of a bucket to merge, the way Paimon's universal compaction (modelled
 * on RocksDB's) does. Runs are given newest first; a pick is always a prefix of them, so the
 * merged run stays older than nothing it skipped. Checks, in order, once the bucket holds at
 * least {@code num-sorted-run.compaction-trigger} runs:
 * <ol>
 *   <li>size amplification: when the runs above the oldest one are more than
 *       {@code compaction.max-size-amplification-percent} of the oldest run's size, merge
 *       everything into the top level;</li>
 *   <li>size ratio: from the newest run, keep taking the next run while the taken size,
 *       grown by {@code compaction.size-ratio} percent, is at least the next run's size;
 *       merge when two or more runs were taken;</li>
 *   <li>run count: with more runs than the trigger, merge the newest
 *       {@code runs - trigger + 1} runs (plus any further ones the size ratio admits).</li>
 * </ol>
 */
public final class UniversalCompaction {
  private final int maxSizeAmpPercent;
  private final int sizeRatio;
  private final int trigger;

  public UniversalCompaction(int maxSizeAmpPercent, int sizeRatio, int numSortedRunTrigger) {
    if (numSortedRunTrigger < 1) {
      throw new IllegalArgumentException("num-sorted-run.compaction-trigger must be at least 1, got "
          + numSortedRunTrigger);
    }
    this.maxSizeAmpPercent = maxSizeAmpPercent;
    this.sizeRatio = sizeRatio;
    this.trigger = numSortedRunTrigger;
  }

  public static UniversalCompaction of(TableOptions options) {
    return new UniversalCompaction(options.maxSizeAmplificationPercent(), options.compactionSizeRatio(),
        options.numSortedRunCompactionTrigger());
  }

  /** A unit to compact, or empty when the bucket's shape needs nothing. */
  public Optional<CompactUnit> pick(int numLevels, List<LevelSortedRun> runs) {
    int maxLevel = topLevel(numLevels);
    if (runs.size() < trigger) return Optional.empty();
    if (sizeAmplified(runs)) return Optional.of(new CompactUnit(maxLevel, runs));
    CompactUnit unit = pickBySizeRatio(maxLevel, runs, 1, false);
    if (unit != null) return Optional.of(unit);
    if (runs.size() > trigger) return Optional.of(pickBySizeRatio(maxLevel, runs, runs.size() - trigger + 1, true));
    return Optional.empty();
  }

  /**
   * For tables whose readers ignore level 0 (first-row, deletion vectors): the usual pick, else
   * every level-0 run pushed up into the levels readers see, so no written row stays invisible.
   */
  public Optional<CompactUnit> pickForceUpLevel0(int numLevels, List<LevelSortedRun> runs) {
    Optional<CompactUnit> usual = pick(numLevels, runs);
    if (usual.isPresent()) return usual;
    int level0 = 0;
    while (level0 < runs.size() && runs.get(level0).level() == 0) level0++;
    if (level0 == 0) return Optional.empty();
    return Optional.of(unitOf(topLevel(numLevels), runs, level0));
  }

  /** Everything into the top level, unless the bucket already is one run there. */
  public static Optional<CompactUnit> pickFull(int numLevels, List<LevelSortedRun> runs) {
    int maxLevel = topLevel(numLevels);
    if (runs.isEmpty() || (runs.size() == 1 && runs.get(0).level() == maxLevel)) return Optional.empty();
    return Optional.of(new CompactUnit(maxLevel, runs));
  }

  private boolean sizeAmplified(List<LevelSortedRun> runs) {
    long newer = 0;
    for (int i = 0; i < runs.size() - 1; i++) newer += runs.get(i).run().totalSize();
    long oldest = runs.get(runs.size() - 1).run().totalSize();
    // Strictly more, as Paimon: a bucket at exactly the limit is left alone.
    return newer * 100 > (long) maxSizeAmpPercent * oldest;
  }

  private CompactUnit pickBySizeRatio(int maxLevel, List<LevelSortedRun> runs, int firstCount, boolean force) {
    int count = firstCount;
    long size = 0;
    for (int i = 0; i < count; i++) size += runs.get(i).run().totalSize();
    while (count < runs.size()) {
      long next = runs.get(count).run().totalSize();
      if (size * (100.0 + sizeRatio) / 100.0 < next) break;
      size += next;
      count++;
    }
    return force || count > 1 ? unitOf(maxLevel, runs, count) : null;
  }

  /**
   * The newest {@code count} runs go one level below the oldest run left out, so they stay above
   * it; never to level 0, which holds only flushed files: a pick that would land there takes in
   * further runs up to the first one above level 0 and joins its level. Taking every run means
   * the top level.
   */
  static CompactUnit unitOf(int maxLevel, List<LevelSortedRun> runs, int count) {
    int outputLevel = count < runs.size() ? Math.max(0, runs.get(count).level() - 1) : maxLevel;
    while (outputLevel == 0 && count < runs.size()) {
      outputLevel = runs.get(count).level();
      count++;
    }
    if (count == runs.size()) outputLevel = maxLevel;
    return new CompactUnit(outputLevel, runs.subList(0, count));
  }

  private static int topLevel(int numLevels) {
    if (numLevels < 2) {
      throw new IllegalArgumentException("num-levels must be at least 2 for a primary-key table, got " + numLevels);
    }
    return numLevels - 1;
  }
}
