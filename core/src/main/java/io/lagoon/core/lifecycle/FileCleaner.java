package io.lagoon.core.lifecycle;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.fs.Path;

/**
 * Deletes what one lifecycle operation found unused, in the order that keeps the table readable
 * if the process dies half-way: data and index files before the metadata naming them, so a later
 * run that finds some metadata gone knows what it named is gone too. Counts what it deleted.
 */
final class FileCleaner {
  private final FileStoreTable table;
  private final FileIO io;
  private final Set<Path> touchedDirs = new HashSet<>();
  private int deleted;

  FileCleaner(FileStoreTable table) {
    this.table = table;
    this.io = table.io();
  }

  /** Deletes every file {@code gone} holds that {@code kept} does not. */
  void deleteUnused(ReferencedFiles gone, ReferencedFiles kept) throws IOException {
    for (String rel : minus(gone.dataFiles, kept.dataFiles)) {
      Path p = new Path(table.dir(), rel);
      delete(p);
      touchedDirs.add(p.getParent());
    }
    for (String n : minus(gone.indexFiles, kept.indexFiles)) delete(table.paths().indexFile(n));
    for (String n : minus(gone.manifests, kept.manifests)) delete(table.manifests().path(n));
    for (String n : minus(gone.indexManifests, kept.indexManifests)) delete(table.manifests().path(n));
    for (String n : minus(gone.manifestLists, kept.manifestLists)) delete(table.manifests().path(n));
  }

  /** Tests stop a run here to see what an interrupted one leaves (a process killed half-way). */
  static volatile java.util.function.Consumer<Path> beforeDelete = p -> { };

  void delete(Path p) throws IOException {
    beforeDelete.accept(p);
    if (io.delete(p, false)) deleted++;
  }

  int deleted() {
    return deleted;
  }

  /**
   * With {@code snapshot.clean-empty-directories}: bucket folders left empty, then partition
   * folders up to the table's, deepest first (a folder another writer just filled stays).
   */
  void removeEmptyDirectories() {
    if (!table.options().cleanEmptyDirectories()) return;
    TreeSet<Path> dirs = new TreeSet<>(Comparator.comparingInt((Path p) -> p.depth()).reversed().thenComparing(Path::toString));
    for (Path d : touchedDirs) {
      for (Path p = d; p != null && p.depth() > table.dir().depth(); p = p.getParent()) dirs.add(p);
    }
    for (Path d : dirs) {
      try {
        if (io.list(d).isEmpty()) io.delete(d, false);
      } catch (IOException | RuntimeException ignore) {
        // a folder that is not empty, or gone already
      }
    }
  }

  private static List<String> minus(Set<String> a, Set<String> b) {
    List<String> out = new ArrayList<>();
    for (String s : a) if (!b.contains(s)) out.add(s);
    out.sort(String::compareTo);
    return out;
  }
}
