package io.lagoon.core.mergetree;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.SparkTypes;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecificInternalRow;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * The last key written to a file, copied into one reused row. A file's last key is known only
 * once it is closed, and the record it came from may be gone by then (readers reuse their rows),
 * so each key written is kept: fixed-width fields are copied into typed slots without boxing or
 * allocating; other values (strings, decimals, binaries) are detached copies.
 */
final class LastKey {
  private final DataType[] types;
  private final SpecificInternalRow row;
  private boolean set;

  LastKey(List<DataField> keyFields) {
    StructType schema = SparkTypes.toSpark(keyFields);
    this.types = new DataType[schema.fields().length];
    for (int i = 0; i < types.length; i++) types[i] = schema.fields()[i].dataType();
    this.row = new SpecificInternalRow(schema);
  }

  void copyFrom(InternalRow key) {
    for (int i = 0; i < types.length; i++) {
      if (key.isNullAt(i)) {
        row.setNullAt(i);
        continue;
      }
      DataType t = types[i];
      if (t instanceof LongType || t instanceof TimestampType || t instanceof TimestampNTZType) row.setLong(i, key.getLong(i));
      else if (t instanceof IntegerType || t instanceof DateType) row.setInt(i, key.getInt(i));
      else if (t instanceof ShortType) row.setShort(i, key.getShort(i));
      else if (t instanceof ByteType) row.setByte(i, key.getByte(i));
      else if (t instanceof BooleanType) row.setBoolean(i, key.getBoolean(i));
      else if (t instanceof DoubleType) row.setDouble(i, key.getDouble(i));
      else if (t instanceof FloatType) row.setFloat(i, key.getFloat(i));
      else if (t instanceof BinaryType) row.update(i, key.getBinary(i).clone()); // copyValue keeps arrays as they are
      else row.update(i, InternalRow.copyValue(key.get(i, t)));
    }
    set = true;
  }

  /** The key last copied, or null before the first. */
  InternalRow row() {
    return set ? row : null;
  }
}
