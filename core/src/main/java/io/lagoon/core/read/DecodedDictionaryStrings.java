package io.lagoon.core.read;

import java.io.Closeable;
import java.io.IOException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.collection.AbstractIterator;
import scala.collection.Iterator;

/**
 * The batches of Spark's Parquet reader with their top-level string columns read through a
 * {@link DictionaryStringVector}, so each dictionary entry is decoded once per column chunk.
 * Spark reuses its vectors from batch to batch; so does this one.
 */
final class DecodedDictionaryStrings extends AbstractIterator<Object> implements Closeable {
  private final Iterator<InternalRow> in;
  private ColumnVector[] sourceColumns;
  private ColumnarBatch out;
  private DictionaryStringVector[] wrapped;

  private DecodedDictionaryStrings(Iterator<InternalRow> in) {
    this.in = in;
  }

  /** The reader's batches with string columns wrapped (batches without strings pass as they are). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static Iterator<InternalRow> wrap(Iterator<InternalRow> batches) {
    return DictionaryStringVector.AVAILABLE ? (Iterator) new DecodedDictionaryStrings(batches) : batches;
  }

  @Override
  public boolean hasNext() {
    return in.hasNext();
  }

  @Override
  public Object next() {
    Object next = in.next();
    if (!(next instanceof ColumnarBatch)) return next;
    ColumnarBatch b = (ColumnarBatch) next;
    if (sourceColumns == null || !sameVectors(b)) rebuild(b);
    for (DictionaryStringVector v : wrapped) if (v != null) v.nextBatch();
    if (out != b) out.setNumRows(b.numRows());
    return out;
  }

  private boolean sameVectors(ColumnarBatch b) {
    if (b.numCols() != sourceColumns.length) return false;
    for (int i = 0; i < sourceColumns.length; i++) if (sourceColumns[i] != b.column(i)) return false;
    return true;
  }

  private void rebuild(ColumnarBatch b) {
    int n = b.numCols();
    sourceColumns = new ColumnVector[n];
    wrapped = new DictionaryStringVector[n];
    ColumnVector[] columns = new ColumnVector[n];
    boolean any = false;
    for (int i = 0; i < n; i++) {
      ColumnVector c = b.column(i);
      sourceColumns[i] = c;
      if (c instanceof WritableColumnVector && c.dataType() instanceof StringType) {
        wrapped[i] = new DictionaryStringVector((WritableColumnVector) c);
        columns[i] = wrapped[i];
        any = true;
      } else {
        columns[i] = c;
      }
    }
    out = any ? new ColumnarBatch(columns) : b;
  }

  @Override
  public void close() throws IOException {
    if (in instanceof Closeable) ((Closeable) in).close();
  }
}
