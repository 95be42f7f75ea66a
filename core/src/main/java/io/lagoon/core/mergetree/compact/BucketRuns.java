package io.lagoon.core.mergetree.compact;

import io.lagoon.core.manifest.DataFileMeta;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * Arranges the live files of one bucket into its sorted runs, newest first: every level-0 file is
 * a run of its own (newest = highest max sequence number), then one run per non-empty level from
 * 1 upwards. This is the order the compaction picker walks.
 */
public final class BucketRuns {
  /** Newest level-0 file first; ties broken deterministically so picks are reproducible. */
  static final Comparator<DataFileMeta> NEWEST_FIRST = Comparator
      .comparingLong((DataFileMeta f) -> f.maxSequenceNumber).reversed()
      .thenComparing(Comparator.comparingLong((DataFileMeta f) -> f.minSequenceNumber).reversed())
      .thenComparing(f -> f.fileName);

  private BucketRuns() {}

  /**
   * The levels a bucket has: the configured {@code num-levels}, or more when files already sit
   * higher (the option, or the trigger it defaults from, was lowered after they were written).
   */
  public static int numLevels(List<DataFileMeta> files, int configured) {
    int levels = configured;
    for (DataFileMeta f : files) levels = Math.max(levels, f.level + 1);
    return levels;
  }

  /**
   * @throws IllegalStateException when a file sits outside the levels, or two files of one level
   *     above 0 overlap (such a bucket is corrupt, and compacting it would hide records)
   */
  public static List<LevelSortedRun> of(List<DataFileMeta> files, int numLevels, FileKeys keys) {
    List<DataFileMeta> level0 = new ArrayList<>();
    TreeMap<Integer, List<DataFileMeta>> upper = new TreeMap<>();
    for (DataFileMeta f : files) {
      if (f.level < 0 || f.level >= numLevels) {
        throw new IllegalStateException("Data file " + f.fileName + " is on level " + f.level
            + ", outside 0.." + (numLevels - 1));
      }
      if (f.level == 0) level0.add(f);
      else upper.computeIfAbsent(f.level, l -> new ArrayList<>()).add(f);
    }
    level0.sort(NEWEST_FIRST);
    List<LevelSortedRun> runs = new ArrayList<>();
    for (DataFileMeta f : level0) runs.add(new LevelSortedRun(0, SortedRun.ofSingle(f)));
    for (var e : upper.entrySet()) {
      List<DataFileMeta> level = e.getValue();
      level.sort(keys::compareRange);
      for (int i = 1; i < level.size(); i++) {
        DataFileMeta prev = level.get(i - 1);
        DataFileMeta cur = level.get(i);
        if (keys.comparator().compare(keys.maxKey(prev), keys.minKey(cur)) >= 0) {
          throw new IllegalStateException("Data files " + prev.fileName + " and " + cur.fileName + " of level "
              + e.getKey() + " overlap in key range; a level above 0 must be one sorted run");
        }
      }
      runs.add(new LevelSortedRun(e.getKey(), SortedRun.ofSorted(level)));
    }
    return runs;
  }

  /** The highest level holding data, or -1 for an empty bucket. */
  public static int highestLevel(List<LevelSortedRun> runs) {
    int max = -1;
    for (LevelSortedRun r : runs) max = Math.max(max, r.level());
    return max;
  }
}
