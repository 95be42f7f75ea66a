package io.lagoon.core.read;

import java.io.Closeable;
import java.io.IOException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.collection.AbstractIterator;
import scala.collection.Iterator;

/**
 * The rows of a reader's column batches, one at a time: the batch's own reused row view, valid
 * until the next call. Elements that are rows already pass through. Closing it closes the reader.
 */
public final class RowsOfBatches extends AbstractIterator<InternalRow> implements Closeable {
  private final Iterator<InternalRow> in;
  private ColumnarBatch batch;
  private int next;
  private InternalRow pending;

  public RowsOfBatches(Iterator<InternalRow> in) {
    this.in = in;
  }

  @Override
  public boolean hasNext() {
    while (pending == null && (batch == null || next >= batch.numRows())) {
      if (!in.hasNext()) return false;
      Object o = in.next();
      if (o instanceof ColumnarBatch) {
        batch = (ColumnarBatch) o;
        next = 0;
      } else {
        batch = null;
        pending = (InternalRow) o;
      }
    }
    return true;
  }

  @Override
  public InternalRow next() {
    if (!hasNext()) throw new java.util.NoSuchElementException();
    if (pending != null) {
      InternalRow r = pending;
      pending = null;
      return r;
    }
    return batch.getRow(next++);
  }

  @Override
  public void close() throws IOException {
    if (in instanceof Closeable) ((Closeable) in).close();
  }
}
