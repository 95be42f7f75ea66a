package io.lagoon.core.io;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;

/** A rough uncompressed size of a row, for formats that cannot report their own size while open. */
final class RowSizeEstimator {
  static final int COMPRESSION_GUESS = 3;
  private final DataType[] types;

  RowSizeEstimator(StructType schema) {
    this.types = new DataType[schema.fields().length];
    for (int i = 0; i < types.length; i++) types[i] = schema.fields()[i].dataType();
  }

  long estimate(InternalRow row) {
    long n = 0;
    for (int i = 0; i < types.length; i++) {
      if (row.isNullAt(i)) continue;
      DataType t = types[i];
      if (t instanceof StringType) n += row.getUTF8String(i).numBytes();
      else if (t instanceof BinaryType) n += row.getBinary(i).length;
      else n += t.defaultSize();
    }
    return n;
  }
}
