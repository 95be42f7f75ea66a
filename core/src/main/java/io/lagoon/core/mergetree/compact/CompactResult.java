package io.lagoon.core.mergetree.compact;

import io.lagoon.core.manifest.DataFileMeta;
import java.util.ArrayList;
import java.util.List;

/**
 * What a compaction changed in a bucket: the files it replaces and the files replacing them. An
 * upgraded file appears in both, under the same name, with its old and its new level.
 */
public final class CompactResult {
  private final List<DataFileMeta> before;
  private final List<DataFileMeta> after;

  public CompactResult(List<DataFileMeta> before, List<DataFileMeta> after) {
    this.before = List.copyOf(before);
    this.after = List.copyOf(after);
  }

  public List<DataFileMeta> before() {
    return before;
  }

  public List<DataFileMeta> after() {
    return after;
  }

  public boolean isEmpty() {
    return before.isEmpty() && after.isEmpty();
  }

  /** Files this compaction wrote: the ones in {@link #after()} not carried over by name. */
  public List<DataFileMeta> newFiles() {
    java.util.Set<String> old = new java.util.HashSet<>();
    for (DataFileMeta f : before) old.add(f.fileName);
    List<DataFileMeta> out = new ArrayList<>();
    for (DataFileMeta f : after) if (!old.contains(f.fileName)) out.add(f);
    return out;
  }

  @Override
  public String toString() {
    return "CompactResult(before=" + before + ", after=" + after + ")";
  }
}
