package io.lagoon.core.mergetree;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.KeyComparator;
import io.lagoon.core.types.PaimonType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Splits the files of one bucket into {@link Section}s by their [minKey, maxKey] ranges: files are
 * swept in minKey order and a file starts a new section when its minKey is above every maxKey seen
 * in the current one. Inside a section, files are packed greedily into as few sorted runs as
 * possible (a file joins the run whose last maxKey is smallest, if that is below its minKey).
 */
public final class KeySections {
  private KeySections() {}

  /** A file with its decoded key range. */
  private static final class Ranged {
    final DataFileMeta file;
    final InternalRow min;
    final InternalRow max;

    Ranged(DataFileMeta file, List<PaimonType> keyTypes) {
      this.file = file;
      this.min = BinaryRows.deserialize(file.minKey, keyTypes);
      this.max = BinaryRows.deserialize(file.maxKey, keyTypes);
    }
  }

  /** An open sorted run: its files and the maxKey of its last file. */
  private static final class Run {
    final List<DataFileMeta> files = new ArrayList<>();
    InternalRow last;
  }

  public static List<Section> split(List<DataFileMeta> files, List<PaimonType> keyTypes) {
    KeyComparator keys = new KeyComparator(keyTypes);
    List<Ranged> sorted = new ArrayList<>();
    for (DataFileMeta f : files) sorted.add(new Ranged(f, keyTypes));
    sorted.sort(Comparator.<Ranged, InternalRow>comparing(r -> r.min, keys).thenComparing(r -> r.max, keys));

    List<Section> out = new ArrayList<>();
    List<Ranged> current = new ArrayList<>();
    InternalRow bound = null;
    for (Ranged r : sorted) {
      if (bound != null && keys.compare(r.min, bound) > 0) {
        out.add(toRuns(current, keys));
        current = new ArrayList<>();
        bound = null;
      }
      current.add(r);
      if (bound == null || keys.compare(r.max, bound) > 0) bound = r.max;
    }
    if (!current.isEmpty()) out.add(toRuns(current, keys));
    return out;
  }

  /** Files already in minKey order become the fewest runs of disjoint files. */
  private static Section toRuns(List<Ranged> files, KeyComparator keys) {
    PriorityQueue<Run> open = new PriorityQueue<>((a, b) -> keys.compare(a.last, b.last));
    List<Run> runs = new ArrayList<>();
    for (Ranged r : files) {
      Run run = open.peek();
      if (run != null && keys.compare(run.last, r.min) < 0) {
        open.poll();
      } else {
        run = new Run();
        runs.add(run);
      }
      run.files.add(r.file);
      run.last = r.max;
      open.add(run);
    }
    List<List<DataFileMeta>> out = new ArrayList<>();
    for (Run r : runs) out.add(r.files);
    return new Section(out);
  }
}
