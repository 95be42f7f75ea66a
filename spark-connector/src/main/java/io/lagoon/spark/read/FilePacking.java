package io.lagoon.spark.read;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Packs file ranges into input partitions of about {@code maxBytes} (each range weighing its
 * length plus {@code openCost}). As many partitions as Spark's file scans would make, but balanced:
 * ranges go largest first to the least-loaded partition, where Spark fills one partition after the
 * other and can leave the last nearly empty while a full one keeps a core busy alone. A table of
 * a few large files and many small ones (a primary-key table's levels) reads twice as fast that way
 * on two cores.
 */
final class FilePacking {
  private FilePacking() {}

  static LagoonInputPartition[] pack(List<LagoonInputPartition.FileRange> ranges, long maxBytes, long openCost) {
    if (ranges.isEmpty()) return new LagoonInputPartition[0];
    List<LagoonInputPartition.FileRange> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparingLong((LagoonInputPartition.FileRange r) -> r.length).reversed());
    long total = 0;
    for (LagoonInputPartition.FileRange r : sorted) total += r.length + openCost;
    // Rounded, not ceiled: a split size derived from the total (SplitSize) must give exactly as
    // many partitions as cores, not one more holding the rounding rest.
    int count = (int) Math.max(1, Math.min(sorted.size(), Math.round(total / (double) Math.max(1, maxBytes))));
    List<List<LagoonInputPartition.FileRange>> bins = new ArrayList<>();
    PriorityQueue<long[]> loads = new PriorityQueue<>(Comparator.<long[]>comparingLong(b -> b[0])
        .thenComparingLong(b -> b[1]));
    for (int i = 0; i < count; i++) {
      bins.add(new ArrayList<>());
      loads.add(new long[] {0, i});
    }
    for (LagoonInputPartition.FileRange r : sorted) {
      long[] least = loads.poll();
      bins.get((int) least[1]).add(r);
      least[0] += r.length + openCost;
      loads.add(least);
    }
    LagoonInputPartition[] out = new LagoonInputPartition[count];
    for (int i = 0; i < count; i++) out[i] = new LagoonInputPartition(bins.get(i));
    return out;
  }
}
