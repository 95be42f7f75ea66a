package io.lagoon.core.mergetree.compact;

/** A sorted run and the LSM level it lives on (each level-0 file is a run of its own). */
public final class LevelSortedRun {
  private final int level;
  private final SortedRun run;

  public LevelSortedRun(int level, SortedRun run) {
    this.level = level;
    this.run = run;
  }

  public int level() {
    return level;
  }

  public SortedRun run() {
    return run;
  }

  @Override
  public String toString() {
    return "L" + level + run;
  }
}
