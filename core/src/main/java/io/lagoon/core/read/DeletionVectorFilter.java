package io.lagoon.core.read;

import io.lagoon.core.deletionvectors.DeletionVector;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.BoundReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.JoinedRow;
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.collection.AbstractIterator;
import scala.collection.Iterator;
import scala.collection.JavaConverters;

/**
 * Applies a data file's deletion vector to what a reader returns when it was built with the row
 * position as its last column: batches keep only live rows (a selection over the same vectors, no
 * copy and no row-at-a-time fallback) and rows are skipped. Then the metadata columns asked for
 * follow the table's: the file's path ({@code _file}, a constant vector) and the position
 * ({@code _pos}); an unasked position column is dropped.
 *
 * <p>Positions come from the reader's position column, or, when the reader returns every row of
 * the file in order (a whole file, no pushed filter), are counted here: Spark's Parquet reader
 * generates its row-index column at a cost that dominated deletion-vector scans.
 */
final class DeletionVectorFilter extends AbstractIterator<Object> implements Closeable {
  private final Iterator<InternalRow> in;
  private final DeletionVector vector;
  private final StructType output;
  private final boolean batch;
  private final LongConsumer dropped;
  private final UnsafeProjection project;
  private final boolean hasPositions;
  /** Positions counted here rather than read: the next row's position in the file. */
  private final boolean counted;
  private long nextPosition;
  private final GenericInternalRow positionRow;
  private final String file;
  private final UTF8String fileValue;
  private final boolean keepPosition;
  private final JoinedRow joined = new JoinedRow();
  private final GenericInternalRow fileRow;
  private InternalRow pending;
  private int[] selection = new int[0];
  private int[] deleted = new int[0];

  /**
   * @param output the columns the caller asked for; the reader returns them plus the position
   * @param vector null: only drop the position column
   * @param dropped told how many rows each batch (or row) lost
   */
  DeletionVectorFilter(Iterator<InternalRow> in, StructType output, boolean hasPositions, DeletionVector vector,
                       boolean batch, LongConsumer dropped, String file, boolean keepPosition) {
    this(in, output, hasPositions, false, vector, batch, dropped, file, keepPosition);
  }

  /**
   * @param counted the reader returns all of a file's rows in order and no position column: the
   *     positions are counted from 0 (then {@code hasPositions} must be true: the rows carry them)
   */
  DeletionVectorFilter(Iterator<InternalRow> in, StructType output, boolean hasPositions, boolean counted,
                       DeletionVector vector, boolean batch, LongConsumer dropped, String file,
                       boolean keepPosition) {
    this.in = in;
    this.output = output;
    this.hasPositions = hasPositions;
    this.counted = counted;
    // Counted rows get their position and the path joined on, in the place a read position has.
    this.positionRow = new GenericInternalRow(new Object[] {0L, file == null ? null : UTF8String.fromString(file)});
    this.vector = vector;
    this.batch = batch;
    this.dropped = dropped;
    this.file = file;
    this.fileValue = file == null ? null : UTF8String.fromString(file);
    this.keepPosition = keepPosition;
    this.fileRow = new GenericInternalRow(new Object[] {fileValue});
    int width = output.fields().length;
    // Rows: the reader's row (columns, then the position if read) joined with a one-field row
    // holding the path; bound references only, so the projection's code is the same for every file.
    List<Expression> columns = new ArrayList<>();
    for (int i = 0; i < width; i++) {
      columns.add(new BoundReference(i, output.fields()[i].dataType(), output.fields()[i].nullable()));
    }
    if (file != null) columns.add(new BoundReference(width + (hasPositions ? 1 : 0), DataTypes.StringType, false));
    if (keepPosition) columns.add(new BoundReference(width, DataTypes.LongType, false));
    this.project = batch ? null : UnsafeProjection.create(JavaConverters.asScalaBuffer(columns).toSeq());
  }

  @Override
  public boolean hasNext() {
    if (batch) return in.hasNext();
    while (pending == null && in.hasNext()) {
      InternalRow r = in.next();
      long position;
      if (counted) {
        position = nextPosition++;
        positionRow.setLong(0, position);
      } else {
        position = hasPositions ? r.getLong(output.fields().length) : -1;
      }
      if (vector != null && vector.isDeleted(position)) {
        dropped.accept(1);
        continue;
      }
      pending = project.apply(joined.apply(r, counted ? positionRow : fileRow));
    }
    return pending != null;
  }

  @Override
  public Object next() {
    if (!hasNext()) throw new java.util.NoSuchElementException();
    if (!batch) {
      InternalRow out = pending;
      pending = null;
      return out;
    }
    ColumnarBatch b = (ColumnarBatch) (Object) in.next();
    int width = output.fields().length;
    int n = b.numRows();
    ColumnVector[] columns = new ColumnVector[width + (file != null ? 1 : 0) + (keepPosition ? 1 : 0)];
    int live = n;
    long first = nextPosition;
    if (counted) nextPosition += n;
    if (vector != null) {
      live = n == 0 ? 0 : counted ? selectRange(first, n) : select(b.column(width), n);
      if (live < n) dropped.accept(n - live);
    }
    for (int c = 0; c < width; c++) {
      columns[c] = live == n ? b.column(c) : new SelectedColumnVector(b.column(c), selection, live);
    }
    int next = width;
    if (file != null) {
      ConstantColumnVector path = new ConstantColumnVector(Math.max(1, live), DataTypes.StringType);
      path.setUtf8String(fileValue);
      columns[next++] = path;
    }
    if (keepPosition && counted) {
      columns[next] = new PositionColumnVector(first, live == n ? null : selection);
    } else if (keepPosition) {
      columns[next] = live == n ? b.column(width) : new SelectedColumnVector(b.column(width), selection, live);
    }
    return new ColumnarBatch(columns, live);
  }

  /**
   * Fills {@code selection} with the batch's live rows; returns their count. A batch's positions
   * are consecutive (a reader returns a row group's rows in order), so the vector is asked for the
   * deleted ones in that range; otherwise each position is tested.
   */
  private int select(ColumnVector positions, int n) {
    long first = positions.getLong(0);
    if (positions.getLong(n - 1) - first == n - 1) return selectRange(first, n);
    if (selection.length < n) selection = new int[n];
    int live = 0;
    for (int r = 0; r < n; r++) if (!vector.isDeleted(positions.getLong(r))) selection[live++] = r;
    return live;
  }

  /** {@link #select} for a batch whose rows sit at positions {@code first .. first + n - 1}. */
  private int selectRange(long first, int n) {
    if (selection.length < n) {
      selection = new int[n];
      deleted = new int[n];
    }
    int d = vector.deletedIn(first, n, deleted);
    if (d == 0) return n;
    int live = 0;
    int r = 0;
    for (int i = 0; i < d; i++) {
      int skip = deleted[i];
      while (r < skip) selection[live++] = r++;
      r++;
    }
    while (r < n) selection[live++] = r++;
    return live;
  }

  @Override
  public void close() throws IOException {
    if (in instanceof Closeable) ((Closeable) in).close();
  }
}
