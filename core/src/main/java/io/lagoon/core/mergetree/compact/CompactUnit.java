package io.lagoon.core.mergetree.compact;

import io.lagoon.core.manifest.DataFileMeta;
import java.util.ArrayList;
import java.util.List;

/** The runs a picker chose to merge, newest first, and the level their merged run goes to. */
public final class CompactUnit {
  private final int outputLevel;
  private final List<LevelSortedRun> runs;

  public CompactUnit(int outputLevel, List<LevelSortedRun> runs) {
    this.outputLevel = outputLevel;
    this.runs = List.copyOf(runs);
  }

  public int outputLevel() {
    return outputLevel;
  }

  public List<LevelSortedRun> runs() {
    return runs;
  }

  public List<DataFileMeta> files() {
    List<DataFileMeta> out = new ArrayList<>();
    for (LevelSortedRun r : runs) out.addAll(r.run().files());
    return out;
  }

  @Override
  public String toString() {
    return "CompactUnit(L" + outputLevel + " <- " + runs + ")";
  }
}
