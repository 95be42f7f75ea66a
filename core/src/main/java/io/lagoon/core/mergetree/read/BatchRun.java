package io.lagoon.core.mergetree.read;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.KeyValueBatchSource;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.read.SelectedColumnVector;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * A cursor over one sorted run of a table whose key is one integral column, read as column
 * batches: the current row's key (as a long), sequence number and row kind, and the rows of the
 * current batch the merge selected for output. Files open one after the other, only when the
 * previous one is used up.
 */
final class BatchRun implements Closeable {
  private final KeyValueBatchSource reader;
  private final Path bucketDir;
  private final Iterator<DataFileMeta> files;
  /** Bytes of the key column: 1, 2, 4 or 8. */
  private final int keyWidth;
  private Iterator<ColumnarBatch> batches;
  private Path path;
  private ColumnVector keys;
  private ColumnVector sequences;
  private ColumnVector kinds;
  private ColumnarBatch batch;
  private int row;
  private int rows;
  /** Rows of the current batch that are merge output, ascending; valid until the batch moves on. */
  private int[] selection = new int[0];
  private int selected;
  long key;
  long sequence;
  byte kind;

  BatchRun(KeyValueBatchSource reader, Path bucketDir, List<DataFileMeta> files, int keyWidth) {
    this.reader = reader;
    this.bucketDir = bucketDir;
    this.files = files.iterator();
    this.keyWidth = keyWidth;
  }

  /** Moves to the next row; false when the run is used up. Selected rows must be taken first. */
  boolean advance() {
    if (selected > 0 && row == rows - 1) throw new IllegalStateException("Selected rows not taken before moving on");
    try {
      while (++row >= rows) {
        if (!nextBatch()) return false;
      }
      load();
      return true;
    } catch (RuntimeException e) {
      throw path == null ? e : reader.readFailure(path, e);
    }
  }

  /** Selects the current row for output when it adds a row (a retraction has no output). */
  void selectCurrent() {
    if (KeyValue.isAdd(kind)) selection[selected++] = row;
  }

  /**
   * Selects, from the current row on, the rows of this batch whose keys are below {@code limit}
   * (no other run holds them) and that add a row; stays on the last of them.
   */
  void selectBelow(long limit) {
    int r = row;
    do {
      if (KeyValue.isAdd(kinds.getByte(r))) selection[selected++] = r;
      r++;
    } while (r < rows && keyAt(r) < limit);
    row = r - 1;
    load();
  }

  /** Whether moving on leaves the current batch while rows of it are selected. */
  boolean mustTakeBeforeAdvance() {
    return selected > 0 && row == rows - 1;
  }

  /**
   * The selected rows as a batch of the output columns {@code sources} (columns of a read batch),
   * valid until this run moves on; the whole batch's vectors when every row is selected.
   */
  ColumnarBatch take(int[] sources) {
    ColumnVector[] out = new ColumnVector[sources.length];
    for (int c = 0; c < sources.length; c++) {
      ColumnVector v = batch.column(sources[c]);
      out[c] = selected == rows ? v : new SelectedColumnVector(v, selection, selected);
    }
    ColumnarBatch b = new ColumnarBatch(out, selected);
    selected = 0;
    return b;
  }

  private long keyAt(int r) {
    switch (keyWidth) {
      case 1: return keys.getByte(r);
      case 2: return keys.getShort(r);
      case 4: return keys.getInt(r);
      default: return keys.getLong(r);
    }
  }

  private void load() {
    key = keyAt(row);
    sequence = sequences.getLong(row);
    kind = kinds.getByte(row);
  }

  private boolean nextBatch() {
    while (batches == null || !batches.hasNext()) {
      close();
      if (!files.hasNext()) return false;
      DataFileMeta file = files.next();
      path = new Path(bucketDir, file.fileName);
      batches = reader.openBatches(bucketDir, file);
    }
    batch = batches.next();
    int k = reader.keyArity();
    keys = batch.column(0);
    sequences = batch.column(k);
    kinds = batch.column(k + 1);
    rows = batch.numRows();
    row = -1;
    if (selection.length < rows) selection = new int[rows];
    return true;
  }

  @Override
  public void close() {
    if (batches instanceof Closeable) {
      try {
        ((Closeable) batches).close();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot close data file " + path, e);
      }
    }
    batches = null;
  }
}
