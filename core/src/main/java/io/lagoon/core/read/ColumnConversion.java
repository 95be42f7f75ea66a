package io.lagoon.core.read;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.CreateNamedStruct;
import org.apache.spark.sql.catalyst.expressions.EvalMode;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GetStructField;
import org.apache.spark.sql.catalyst.expressions.If;
import org.apache.spark.sql.catalyst.expressions.IsNull;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import scala.collection.JavaConverters;

/**
 * How a column read from a file of an older schema becomes the requested column, where reading it
 * by position is not enough: a cast of a retyped value, or a struct rebuilt field by field (fields
 * added since are null, the others converted in turn). Null stands for "as read".
 */
abstract class ColumnConversion implements Serializable {
  /** The requested value, as an expression over the file's value {@code in}. */
  abstract Expression expression(Expression in, DataType target);

  /** The requested column over the file's column {@code in} of a batch of {@code rows} rows. */
  abstract ColumnVector vector(ColumnVector in, DataType target, int rows);

  static Expression expression(ColumnConversion c, Expression in, DataType target) {
    return c == null ? in : c.expression(in, target);
  }

  static ColumnVector vector(ColumnConversion c, ColumnVector in, DataType target, int rows) {
    return c == null ? in : c.vector(in, target, rows);
  }

  /** A column of nulls of the given type. */
  static ColumnVector nulls(DataType type, int rows) {
    ConstantColumnVector v = new ConstantColumnVector(Math.max(rows, 1), type);
    v.setNull();
    return v;
  }

  /** A value written under another type, cast as Spark SQL casts it. */
  static final class CastFrom extends ColumnConversion {
    private final DataType from;

    CastFrom(DataType from) {
      this.from = from;
    }

    @Override
    Expression expression(Expression in, DataType target) {
      return new Cast(in, target, scala.Option.apply("UTC"), EvalMode.LEGACY());
    }

    @Override
    ColumnVector vector(ColumnVector in, DataType target, int rows) {
      return new CastColumnVector(in, from, target);
    }
  }

  /** A struct rebuilt from the file's struct: per requested field, the file's field it comes from (-1: null). */
  static final class RebuildStruct extends ColumnConversion {
    private final int[] source;
    private final ColumnConversion[] children;

    RebuildStruct(int[] source, ColumnConversion[] children) {
      this.source = source;
      this.children = children;
    }

    @Override
    Expression expression(Expression in, DataType target) {
      StructType t = (StructType) target;
      List<Expression> parts = new ArrayList<>();
      for (int j = 0; j < source.length; j++) {
        DataType to = t.fields()[j].dataType();
        parts.add(Literal.create(t.fields()[j].name(), org.apache.spark.sql.types.DataTypes.StringType));
        parts.add(source[j] < 0 ? Literal.create(null, to)
            : expression(children[j], new GetStructField(in, source[j], scala.Option.empty()), to));
      }
      Expression struct = new CreateNamedStruct(JavaConverters.asScalaBuffer(parts).toSeq());
      return new If(new IsNull(in), Literal.create(null, target), struct);
    }

    @Override
    ColumnVector vector(ColumnVector in, DataType target, int rows) {
      StructType t = (StructType) target;
      ColumnVector[] out = new ColumnVector[source.length];
      for (int j = 0; j < source.length; j++) {
        DataType to = t.fields()[j].dataType();
        out[j] = source[j] < 0 ? nulls(to, rows) : vector(children[j], in.getChild(source[j]), to, rows);
      }
      return new StructColumnVector(in, target, out);
    }
  }
}
