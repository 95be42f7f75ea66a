package io.lagoon.core.mergetree.compact;

import io.lagoon.core.manifest.DataFileMeta;
import java.util.List;

/**
 * Files that together hold one record per key at most: their key ranges do not overlap and they
 * are listed in ascending key order, so reading them one after another yields ascending keys.
 */
public final class SortedRun {
  private final List<DataFileMeta> files;
  private final long totalSize;

  private SortedRun(List<DataFileMeta> files) {
    this.files = List.copyOf(files);
    long size = 0;
    for (DataFileMeta f : files) size += f.fileSize;
    this.totalSize = size;
  }

  /** A run of files already in ascending, non-overlapping key order (not checked here). */
  public static SortedRun ofSorted(List<DataFileMeta> files) {
    return new SortedRun(files);
  }

  public static SortedRun ofSingle(DataFileMeta file) {
    return new SortedRun(List.of(file));
  }

  public List<DataFileMeta> files() {
    return files;
  }

  /** Bytes on disk: the picker weighs runs by it. */
  public long totalSize() {
    return totalSize;
  }

  @Override
  public String toString() {
    return files.toString();
  }
}
