package io.lagoon.core.data;

import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A valid non-null value of each type (zero, empty), in Spark's internal form: what a record
 * that only needs its key (a retraction) carries in NOT NULL columns, so its file stays valid.
 */
public final class ZeroValues {
  private ZeroValues() {}

  public static Object of(DataType t) {
    if (t instanceof BooleanType) return false;
    if (t instanceof ByteType) return (byte) 0;
    if (t instanceof ShortType) return (short) 0;
    if (t instanceof IntegerType || t instanceof DateType) return 0;
    if (t instanceof LongType || t instanceof TimestampType || t instanceof TimestampNTZType) return 0L;
    if (t instanceof FloatType) return 0f;
    if (t instanceof DoubleType) return 0d;
    if (t instanceof DecimalType) return Decimal.apply(0L, ((DecimalType) t).precision(), ((DecimalType) t).scale());
    if (t instanceof StringType) return UTF8String.EMPTY_UTF8;
    if (t instanceof BinaryType) return new byte[0];
    if (t instanceof ArrayType) return new GenericArrayData(new Object[0]);
    if (t instanceof MapType) {
      return new ArrayBasedMapData(new GenericArrayData(new Object[0]), new GenericArrayData(new Object[0]));
    }
    if (t instanceof StructType) {
      StructField[] fields = ((StructType) t).fields();
      Object[] values = new Object[fields.length];
      for (int i = 0; i < values.length; i++) values[i] = fields[i].nullable() ? null : of(fields[i].dataType());
      return new GenericInternalRow(values);
    }
    throw new IllegalArgumentException("No zero value for type " + t);
  }
}
