package io.lagoon.core.mergetree.compact;

import io.lagoon.core.manifest.DataFileMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Splits files into sections whose key ranges do not touch each other, in ascending key order,
 * and each section into as few sorted runs as possible. A key can then only have records inside
 * one section, so sections merge independently, and a section of one run needs no merge at all.
 */
final class KeySections {
  private KeySections() {}

  static List<List<SortedRun>> of(List<DataFileMeta> files, FileKeys keys) {
    List<DataFileMeta> sorted = new ArrayList<>(files);
    sorted.sort(keys::compareRange);
    List<List<SortedRun>> sections = new ArrayList<>();
    List<DataFileMeta> section = new ArrayList<>();
    DataFileMeta reach = null; // the file with the largest last key in the open section
    for (DataFileMeta f : sorted) {
      if (reach != null && keys.comparator().compare(keys.minKey(f), keys.maxKey(reach)) > 0) {
        sections.add(toRuns(section, keys));
        section = new ArrayList<>();
        reach = null;
      }
      section.add(f);
      if (reach == null || keys.comparator().compare(keys.maxKey(f), keys.maxKey(reach)) > 0) reach = f;
    }
    if (!section.isEmpty()) sections.add(toRuns(section, keys));
    return sections;
  }

  /**
   * Greedy interval partitioning over files sorted by first key: a file extends the run that
   * ended earliest if it starts after that run's last key, and opens a new run otherwise.
   */
  private static List<SortedRun> toRuns(List<DataFileMeta> section, FileKeys keys) {
    PriorityQueue<List<DataFileMeta>> byEnd = new PriorityQueue<>((a, b) ->
        keys.comparator().compare(keys.maxKey(a.get(a.size() - 1)), keys.maxKey(b.get(b.size() - 1))));
    for (DataFileMeta f : section) {
      List<DataFileMeta> run = byEnd.peek();
      if (run != null && keys.comparator().compare(keys.maxKey(run.get(run.size() - 1)), keys.minKey(f)) < 0) {
        byEnd.poll();
      } else {
        run = new ArrayList<>();
      }
      run.add(f);
      byEnd.add(run);
    }
    List<SortedRun> runs = new ArrayList<>();
    for (List<DataFileMeta> r : byEnd) runs.add(SortedRun.ofSorted(r));
    return runs;
  }
}
