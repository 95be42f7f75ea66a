package io.lagoon.core.compaction;

import io.lagoon.core.manifest.ManifestEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Which files of one append bucket to merge, and how (pure). Small files (below
 * {@code target-file-size}) and files with deleted rows are the candidates; they are grouped, in
 * sequence order, into groups of about {@code target-file-size} (at most
 * {@code compaction.max.file-num} files), each rewritten into one file. A group of one small file
 * without deleted rows is left alone. A minor compaction acts only once a bucket has
 * {@code compaction.min.file-num} candidates; a full one always. On a fixed-bucket table a group
 * never skips a file, so rows keep their order; a bucket-unaware table's small files group freely.
 */
public final class AppendCompactionPicker {
  private final long targetSize;
  private final int minFileNum;
  private final int maxFileNum;
  private final boolean keepOrder;

  public AppendCompactionPicker(long targetSize, int minFileNum, int maxFileNum, boolean keepOrder) {
    this.targetSize = targetSize;
    this.minFileNum = minFileNum;
    this.maxFileNum = maxFileNum;
    this.keepOrder = keepOrder;
  }

  /**
   * @param files the bucket's live files
   * @param withVectors names of those with deleted rows
   */
  public List<List<ManifestEntry>> pick(List<ManifestEntry> files, Set<String> withVectors, boolean full) {
    List<ManifestEntry> sorted = new ArrayList<>(files);
    sorted.sort(Comparator.comparingLong(e -> e.file.minSequenceNumber));
    int candidates = 0;
    for (ManifestEntry e : sorted) if (candidate(e, withVectors)) candidates++;
    List<List<ManifestEntry>> groups = new ArrayList<>();
    if (candidates == 0 || !full && candidates < minFileNum) return groups;
    List<ManifestEntry> group = new ArrayList<>();
    long size = 0;
    for (ManifestEntry e : sorted) {
      if (!candidate(e, withVectors)) {
        if (keepOrder) {
          close(group, withVectors, groups);
          group = new ArrayList<>();
          size = 0;
        }
        continue;
      }
      group.add(e);
      size += e.file.fileSize;
      if (size >= targetSize || group.size() >= maxFileNum) {
        close(group, withVectors, groups);
        group = new ArrayList<>();
        size = 0;
      }
    }
    close(group, withVectors, groups);
    return groups;
  }

  private boolean candidate(ManifestEntry e, Set<String> withVectors) {
    return e.file.fileSize < targetSize || withVectors.contains(e.file.fileName);
  }

  private static void close(List<ManifestEntry> group, Set<String> withVectors, List<List<ManifestEntry>> out) {
    if (group.size() > 1 || group.size() == 1 && withVectors.contains(group.get(0).file.fileName)) out.add(group);
  }
}
