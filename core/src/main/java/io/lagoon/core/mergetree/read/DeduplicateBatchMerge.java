package io.lagoon.core.mergetree.read;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.KeyValueFileReader;
import io.lagoon.core.mergetree.Section;
import io.lagoon.core.mergetree.engine.KeyValue;
import java.io.Closeable;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.DataType;

/**
 * Merge-on-read of a deduplicate table whose key is one integral column, straight from column
 * batches into column batches: each key's record with the highest sequence number wins and, when
 * it adds a row, its columns are copied to the output; no record objects, no row views. It gives
 * what {@link MergeTreeReader} gives for such a table (a lone retraction is dropped too), for the
 * common case; other engines, {@code sequence.field} and {@code ignore-delete} take the row path.
 *
 * <p>Runs are compared by a scan of their heads, cheap for the few runs universal compaction
 * leaves; {@link #MAX_RUNS} bounds it.
 */
public final class DeduplicateBatchMerge implements Closeable {
  /** Sections with more runs than this take the row path (its heap scales better). */
  public static final int MAX_RUNS = 16;

  private final KeyValueFileReader reader;
  private final Path bucketDir;
  private final Iterator<Section> sections;
  private final int keyWidth;
  /** Per output column: its column in a read batch, and how to copy it. */
  private final int[] sources;
  private final ColumnCopier[] copiers;
  private final BatchRun[] heads = new BatchRun[MAX_RUNS];
  private int active;

  /**
   * @param keyWidth bytes of the integral key column (1, 2, 4 or 8)
   * @param sources per output column, the read batch column it comes from
   * @param types per output column, its type (atomic)
   */
  public DeduplicateBatchMerge(KeyValueFileReader reader, Path bucketDir, List<Section> sections, int keyWidth,
                               int[] sources, DataType[] types) {
    this.reader = reader;
    this.bucketDir = bucketDir;
    this.sections = sections.iterator();
    this.keyWidth = keyWidth;
    this.sources = sources.clone();
    this.copiers = new ColumnCopier[types.length];
    for (int i = 0; i < types.length; i++) {
      copiers[i] = ColumnCopier.of(types[i]);
      if (copiers[i] == null) throw new IllegalArgumentException("Not an atomic column type: " + types[i]);
    }
    for (Section s : sections) {
      if (s.runs().size() > MAX_RUNS) throw new IllegalArgumentException("A section has more than " + MAX_RUNS + " runs");
    }
  }

  /** Whether the columns of these types can be copied by this merge. */
  public static boolean supports(DataType[] types) {
    for (DataType t : types) if (ColumnCopier.of(t) == null) return false;
    return true;
  }

  /** Whether every section has few enough runs for this merge. */
  public static boolean fits(List<Section> sections) {
    for (Section s : sections) if (s.runs().size() > MAX_RUNS) return false;
    return true;
  }

  /**
   * Writes up to {@code capacity} merged rows into {@code out} (one vector per output column,
   * reset by the caller) and returns how many; 0 once every section is read.
   */
  public int next(WritableColumnVector[] out, int capacity) {
    int n = 0;
    while (n < capacity) {
      if (active == 0 && !openNextSection()) break;
      // The smallest key among the heads; of its records, the highest sequence number wins.
      BatchRun winner = heads[0];
      long key = winner.key;
      for (int i = 1; i < active; i++) {
        BatchRun h = heads[i];
        if (h.key < key || (h.key == key && h.sequence > winner.sequence)) {
          winner = h;
          key = h.key;
        }
      }
      if (KeyValue.isAdd(winner.kind)) {
        for (int c = 0; c < copiers.length; c++) {
          copiers[c].copy(winner.batch.column(sources[c]), winner.row, out[c], n);
        }
        n++;
      }
      // Only now may the runs move on: their batches are reused.
      for (int i = active - 1; i >= 0; i--) {
        if (heads[i].key == key && !heads[i].advance()) {
          heads[i].close();
          heads[i] = heads[--active];
          heads[active] = null;
        }
      }
    }
    return n;
  }

  private boolean openNextSection() {
    while (active == 0) {
      if (!sections.hasNext()) return false;
      for (List<DataFileMeta> run : sections.next().runs()) {
        BatchRun r = new BatchRun(reader, bucketDir, run, keyWidth);
        heads[active++] = r;
        if (!r.advance()) {
          r.close();
          heads[--active] = null;
        }
      }
    }
    return true;
  }

  @Override
  public void close() {
    for (int i = 0; i < active; i++) heads[i].close();
    active = 0;
  }
}
