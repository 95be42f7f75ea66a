package io.lagoon.core.mergetree.read;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.KeyValueBatchSource;
import io.lagoon.core.mergetree.Section;
import java.io.Closeable;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Merge-on-read of a deduplicate table whose key is one integral column, straight from column
 * batches: each key's record with the highest sequence number wins and, when it adds a row, that
 * row is selected in the batch it was read in. Output batches are those read batches seen
 * through their selected rows, so no value is copied or decoded; a stretch of keys that only one
 * run holds is selected in one pass over its keys. It gives the rows {@link MergeTreeReader} gives
 * for such a table (a lone retraction is dropped too), grouped by the batch they were read in
 * rather than in key order; other engines, {@code sequence.field} and {@code ignore-delete} take
 * the row path.
 *
 * <p>Runs are compared by a scan of their heads, cheap for the few runs universal compaction
 * leaves; {@link #MAX_RUNS} bounds it.
 */
public final class DeduplicateBatchMerge implements Closeable {
  /** Sections with more runs than this take the row path (its heap scales better). */
  public static final int MAX_RUNS = 16;

  private final KeyValueBatchSource reader;
  private final Path bucketDir;
  private final Iterator<Section> sections;
  private final int keyWidth;
  /** Per output column, its column in a read batch. */
  private final int[] sources;
  private final BatchRun[] heads = new BatchRun[MAX_RUNS];
  private int active;
  /** Set when the heads at {@link #stepKey} still have to move on (a taken batch interrupted them). */
  private boolean stepping;
  private long stepKey;

  /**
   * @param keyWidth bytes of the integral key column (1, 2, 4 or 8)
   * @param sources per output column, the read batch column it comes from
   */
  public DeduplicateBatchMerge(KeyValueBatchSource reader, Path bucketDir, List<Section> sections, int keyWidth,
                               int[] sources) {
    this.reader = reader;
    this.bucketDir = bucketDir;
    this.sections = sections.iterator();
    this.keyWidth = keyWidth;
    this.sources = sources.clone();
    for (Section s : sections) {
      if (s.runs().size() > MAX_RUNS) throw new IllegalArgumentException("A section has more than " + MAX_RUNS + " runs");
    }
  }

  /** Whether every section has few enough runs for this merge. */
  public static boolean fits(List<Section> sections) {
    for (Section s : sections) if (s.runs().size() > MAX_RUNS) return false;
    return true;
  }

  /**
   * The next merged rows (at least one), as a batch valid until the next call; null once every
   * section is read.
   */
  public ColumnarBatch next() {
    while (true) {
      if (stepping) {
        // Move on every head at the step's key; a head leaving a batch with selected rows hands them out first.
        for (int i = active - 1; i >= 0; i--) {
          BatchRun h = heads[i];
          if (h.key != stepKey) continue;
          if (h.mustTakeBeforeAdvance()) return h.take(sources);
          if (!h.advance()) {
            h.close();
            heads[i] = heads[--active];
            heads[active] = null;
          }
        }
        stepping = false;
      }
      if (active == 0 && !openNextSection()) return null;
      step();
    }
  }

  /** Selects the winner of the smallest key among the heads, or of a stretch of keys only one head holds. */
  private void step() {
    BatchRun winner = heads[0];
    for (int i = 1; i < active; i++) {
      BatchRun h = heads[i];
      if (h.key < winner.key || (h.key == winner.key && h.sequence > winner.sequence)) winner = h;
    }
    long others = Long.MAX_VALUE;
    for (int i = 0; i < active; i++) if (heads[i] != winner) others = Math.min(others, heads[i].key);
    if (others > winner.key) winner.selectBelow(others);
    else winner.selectCurrent();
    stepKey = winner.key;
    stepping = true;
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
