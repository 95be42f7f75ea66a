package io.lagoon.core.read;

import java.io.Closeable;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.BoundReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.collection.Iterator;
import scala.collection.JavaConverters;

/**
 * Turns what a reader returns for a file of an older schema (its columns, under its own names and
 * types) into the requested columns: each one taken from the file's column it maps to, cast where
 * the type changed, or null where the file does not hold it. Columns a reader appends after the
 * requested ones (file path, row position) pass through.
 */
final class EvolvedColumns implements Serializable {
  /** Per requested column, its position in the file reader's output; -1: not in the file (null). */
  private final int[] source;
  /** Per requested column, how the file's value becomes it; null: as read. */
  private final ColumnConversion[] conversions;
  private final StructType required;
  /** The types of the columns the file's reader returns (before the appended ones). */
  private final DataType[] fileTypes;

  EvolvedColumns(int[] source, ColumnConversion[] conversions, StructType required, StructType fileRequired) {
    this.source = source;
    this.conversions = conversions;
    this.required = required;
    this.fileTypes = new DataType[fileRequired.fields().length];
    for (int i = 0; i < fileTypes.length; i++) fileTypes[i] = fileRequired.fields()[i].dataType();
  }

  /**
   * The file reader's output (rows, or batches typed as rows) as the requested columns.
   *
   * @param extras the types of the columns the reader appends after the requested ones
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  Iterator<InternalRow> adapt(Iterator<InternalRow> in, boolean batch, DataType[] extras) {
    return batch ? (Iterator) new Batches((Iterator) in, extras.length) : new Rows(in, extras);
  }

  private int fileColumns() {
    return fileTypes.length;
  }

  /** Rows through a projection: references, casts and null literals. */
  private final class Rows extends scala.collection.AbstractIterator<InternalRow> implements Closeable {
    private final Iterator<InternalRow> in;
    private final UnsafeProjection projection;

    Rows(Iterator<InternalRow> in, DataType[] extras) {
      this.in = in;
      List<Expression> exprs = new ArrayList<>();
      for (int i = 0; i < source.length; i++) {
        DataType to = required.fields()[i].dataType();
        if (source[i] < 0) {
          exprs.add(Literal.create(null, to));
        } else if (conversions[i] == null) {
          exprs.add(new BoundReference(source[i], to, true));
        } else {
          exprs.add(conversions[i].expression(new BoundReference(source[i], fileTypes[source[i]], true), to));
        }
      }
      int file = fileColumns();
      for (int e = 0; e < extras.length; e++) exprs.add(new BoundReference(file + e, extras[e], true));
      this.projection = UnsafeProjection.create(JavaConverters.asScalaBuffer(exprs).toSeq());
    }

    @Override public boolean hasNext() { return in.hasNext(); }
    @Override public InternalRow next() { return projection.apply(in.next()); }

    @Override
    public void close() throws IOException {
      if (in instanceof Closeable) ((Closeable) in).close();
    }
  }

  /** Batches with their columns rearranged: the file's vectors, casting views, null vectors. */
  private final class Batches extends scala.collection.AbstractIterator<Object> implements Closeable {
    private final Iterator<Object> in;
    private final int extras;

    Batches(Iterator<Object> in, int extras) {
      this.in = in;
      this.extras = extras;
    }

    @Override public boolean hasNext() { return in.hasNext(); }

    @Override
    public Object next() {
      ColumnarBatch b = (ColumnarBatch) in.next();
      int rows = b.numRows();
      ColumnVector[] out = new ColumnVector[source.length + extras];
      for (int i = 0; i < source.length; i++) {
        DataType to = required.fields()[i].dataType();
        out[i] = source[i] < 0 ? ColumnConversion.nulls(to, rows)
            : ColumnConversion.vector(conversions[i], b.column(source[i]), to, rows);
      }
      int file = fileColumns();
      for (int e = 0; e < extras; e++) out[source.length + e] = b.column(file + e);
      return new ColumnarBatch(out, rows);
    }

    @Override
    public void close() throws IOException {
      if (in instanceof Closeable) ((Closeable) in).close();
    }
  }
}
