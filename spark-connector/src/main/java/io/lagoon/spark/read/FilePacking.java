package io.lagoon.spark.read;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Packs file ranges into input partitions of about {@code maxBytes}, largest first, as Spark's file scans do. */
final class FilePacking {
  private FilePacking() {}

  static LagoonInputPartition[] pack(List<LagoonInputPartition.FileRange> ranges, long maxBytes, long openCost) {
    List<LagoonInputPartition.FileRange> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparingLong((LagoonInputPartition.FileRange r) -> r.length).reversed());
    List<LagoonInputPartition> out = new ArrayList<>();
    List<LagoonInputPartition.FileRange> current = new ArrayList<>();
    long size = 0;
    for (LagoonInputPartition.FileRange r : sorted) {
      if (!current.isEmpty() && size + r.length > maxBytes) {
        out.add(new LagoonInputPartition(current));
        current = new ArrayList<>();
        size = 0;
      }
      current.add(r);
      size += r.length + openCost;
    }
    if (!current.isEmpty()) out.add(new LagoonInputPartition(current));
    return out.toArray(new LagoonInputPartition[0]);
  }
}
