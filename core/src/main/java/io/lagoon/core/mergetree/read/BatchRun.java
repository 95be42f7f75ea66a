package io.lagoon.core.mergetree.read;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.KeyValueFileReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * A cursor over one sorted run of a table whose key is one integral column, read as column
 * batches: the current row's key (as a long), sequence number and row kind, and the batch it sits
 * in. Files open one after the other, only when the previous one is used up.
 */
final class BatchRun implements Closeable {
  private final KeyValueFileReader reader;
  private final Path bucketDir;
  private final Iterator<DataFileMeta> files;
  /** Bytes of the key column: 1, 2, 4 or 8. */
  private final int keyWidth;
  private scala.collection.Iterator<InternalRow> batches;
  private Path path;
  private ColumnVector keys;
  private ColumnVector sequences;
  private ColumnVector kinds;
  ColumnarBatch batch;
  int row;
  private int rows;
  long key;
  long sequence;
  byte kind;

  BatchRun(KeyValueFileReader reader, Path bucketDir, List<DataFileMeta> files, int keyWidth) {
    this.reader = reader;
    this.bucketDir = bucketDir;
    this.files = files.iterator();
    this.keyWidth = keyWidth;
  }

  /** Moves to the next row; false (and closed) when the run is used up. */
  boolean advance() {
    try {
      while (++row >= rows) {
        if (!nextBatch()) return false;
      }
      switch (keyWidth) {
        case 1: key = keys.getByte(row); break;
        case 2: key = keys.getShort(row); break;
        case 4: key = keys.getInt(row); break;
        default: key = keys.getLong(row); break;
      }
      sequence = sequences.getLong(row);
      kind = kinds.getByte(row);
      return true;
    } catch (RuntimeException e) {
      throw path == null ? e : reader.readFailure(path, e);
    }
  }

  private boolean nextBatch() {
    while (batches == null || !batches.hasNext()) {
      close();
      if (!files.hasNext()) return false;
      DataFileMeta file = files.next();
      path = new Path(bucketDir, file.fileName);
      batches = reader.openBatches(bucketDir, file);
    }
    batch = (ColumnarBatch) (Object) batches.next();
    int k = reader.keyArity();
    keys = batch.column(0);
    sequences = batch.column(k);
    kinds = batch.column(k + 1);
    rows = batch.numRows();
    row = -1;
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
