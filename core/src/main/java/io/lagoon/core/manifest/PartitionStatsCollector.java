package io.lagoon.core.manifest;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.io.StatsCollector;
import io.lagoon.core.types.PaimonType;
import java.util.List;

/** Gathers min/max/null counts of the partitions of a manifest's entries, for manifest pruning. */
public final class PartitionStatsCollector {
  private final List<PaimonType> partitionTypes;
  private final StatsCollector stats;

  public PartitionStatsCollector(List<PaimonType> partitionTypes) {
    this.partitionTypes = partitionTypes;
    this.stats = new StatsCollector(partitionTypes);
  }

  public void add(byte[] serializedPartition) {
    if (partitionTypes.isEmpty()) return;
    stats.update(BinaryRows.deserialize(serializedPartition, partitionTypes));
  }

  public SimpleStats result() {
    return partitionTypes.isEmpty() ? SimpleStats.EMPTY : stats.toSimpleStats();
  }
}
