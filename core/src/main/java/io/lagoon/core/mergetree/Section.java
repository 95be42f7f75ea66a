package io.lagoon.core.mergetree;

import io.lagoon.core.manifest.DataFileMeta;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Files of one bucket whose key ranges overlap (transitively), arranged into sorted runs: inside a
 * run the files' key ranges are disjoint and ascending, so each run holds a key at most once. Keys
 * of different sections never meet, so sections are merged independently and read in key order.
 */
public final class Section implements Serializable {
  private final List<List<DataFileMeta>> runs;

  public Section(List<List<DataFileMeta>> runs) {
    List<List<DataFileMeta>> copy = new ArrayList<>();
    for (List<DataFileMeta> r : runs) copy.add(List.copyOf(r));
    this.runs = List.copyOf(copy);
  }

  public List<List<DataFileMeta>> runs() {
    return runs;
  }

  public List<DataFileMeta> files() {
    List<DataFileMeta> out = new ArrayList<>();
    for (List<DataFileMeta> r : runs) out.addAll(r);
    return out;
  }

  public boolean isSingleFile() {
    return runs.size() == 1 && runs.get(0).size() == 1;
  }

  public long sizeInBytes() {
    long n = 0;
    for (DataFileMeta f : files()) n += f.fileSize;
    return n;
  }

  public long rowCount() {
    long n = 0;
    for (DataFileMeta f : files()) n += f.rowCount;
    return n;
  }

  @Override
  public String toString() {
    return "Section" + runs;
  }
}
