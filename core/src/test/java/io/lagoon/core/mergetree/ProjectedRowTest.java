package io.lagoon.core.mergetree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * A projection over a batch's row view reads the batch's vectors itself; it must answer exactly as
 * the same projection over the same values held in an ordinary row, for every type and null, as
 * the view moves from row to row and on to another batch.
 */
class ProjectedRowTest {
  private static final DataType[] TYPES = {DataTypes.BooleanType, DataTypes.ByteType, DataTypes.ShortType,
      DataTypes.IntegerType, DataTypes.LongType, DataTypes.FloatType, DataTypes.DoubleType, DataTypes.StringType,
      DataTypes.BinaryType, new DecimalType(12, 2)};
  /** Every column but the first, backwards, and a field that is always null (-1). */
  private static final int[] SOURCES = {9, 8, 7, 6, 5, 4, 3, 2, 1, -1};

  private static Object value(DataType t, Random r) {
    if (r.nextInt(5) == 0) return null;
    if (t == DataTypes.BooleanType) return r.nextBoolean();
    if (t == DataTypes.ByteType) return (byte) r.nextInt();
    if (t == DataTypes.ShortType) return (short) r.nextInt();
    if (t == DataTypes.IntegerType) return r.nextInt();
    if (t == DataTypes.LongType) return r.nextLong();
    if (t == DataTypes.FloatType) return r.nextFloat();
    if (t == DataTypes.DoubleType) return r.nextDouble();
    if (t == DataTypes.StringType) return UTF8String.fromString("s" + r.nextInt(1000));
    if (t == DataTypes.BinaryType) return new byte[] {(byte) r.nextInt(), (byte) r.nextInt()};
    return Decimal.apply(r.nextInt(1_000_000), 12, 2);
  }

  private static ColumnarBatch batch(Object[][] rows) {
    OnHeapColumnVector[] vectors = new OnHeapColumnVector[TYPES.length];
    for (int c = 0; c < TYPES.length; c++) {
      OnHeapColumnVector v = new OnHeapColumnVector(rows.length, TYPES[c]);
      for (int r = 0; r < rows.length; r++) {
        Object o = rows[r][c];
        if (o == null) v.putNull(r);
        else if (o instanceof Boolean) v.putBoolean(r, (Boolean) o);
        else if (o instanceof Byte) v.putByte(r, (Byte) o);
        else if (o instanceof Short) v.putShort(r, (Short) o);
        else if (o instanceof Integer) v.putInt(r, (Integer) o);
        else if (o instanceof Long) v.putLong(r, (Long) o);
        else if (o instanceof Float) v.putFloat(r, (Float) o);
        else if (o instanceof Double) v.putDouble(r, (Double) o);
        else if (o instanceof UTF8String) v.putByteArray(r, ((UTF8String) o).getBytes());
        else if (o instanceof byte[]) v.putByteArray(r, (byte[]) o);
        else v.putLong(r, ((Decimal) o).toUnscaledLong());
      }
      vectors[c] = v;
    }
    return new ColumnarBatch(vectors, rows.length);
  }

  private static void same(ProjectedRow expected, ProjectedRow actual, String where) {
    for (int i = 0; i < SOURCES.length; i++) {
      String at = where + " field " + i;
      assertEquals(expected.isNullAt(i), actual.isNullAt(i), at);
      if (expected.isNullAt(i)) continue;
      DataType t = TYPES[SOURCES[i]];
      if (t == DataTypes.BooleanType) assertEquals(expected.getBoolean(i), actual.getBoolean(i), at);
      else if (t == DataTypes.ByteType) assertEquals(expected.getByte(i), actual.getByte(i), at);
      else if (t == DataTypes.ShortType) assertEquals(expected.getShort(i), actual.getShort(i), at);
      else if (t == DataTypes.IntegerType) assertEquals(expected.getInt(i), actual.getInt(i), at);
      else if (t == DataTypes.LongType) assertEquals(expected.getLong(i), actual.getLong(i), at);
      else if (t == DataTypes.FloatType) assertEquals(expected.getFloat(i), actual.getFloat(i), at);
      else if (t == DataTypes.DoubleType) assertEquals(expected.getDouble(i), actual.getDouble(i), at);
      else if (t == DataTypes.StringType) assertEquals(expected.getUTF8String(i), actual.getUTF8String(i), at);
      else if (t == DataTypes.BinaryType) assertArrayEquals(expected.getBinary(i), actual.getBinary(i), at);
      else assertEquals(expected.getDecimal(i, 12, 2), actual.getDecimal(i, 12, 2), at);
      if (t != DataTypes.BinaryType) assertEquals(expected.get(i, t), actual.get(i, t), at);
    }
  }

  @Test
  void aBatchRowViewReadsAsTheSameValuesInAnOrdinaryRow() {
    Random r = new Random(7);
    DataType[] projected = new DataType[SOURCES.length];
    for (int i = 0; i < SOURCES.length; i++) projected[i] = SOURCES[i] < 0 ? DataTypes.NullType : TYPES[SOURCES[i]];
    ProjectedRow overBatch = new ProjectedRow(SOURCES, projected);
    ProjectedRow overRow = new ProjectedRow(SOURCES, projected);
    for (int b = 0; b < 3; b++) {
      Object[][] rows = new Object[200][TYPES.length];
      for (Object[] row : rows) for (int c = 0; c < TYPES.length; c++) row[c] = value(TYPES[c], r);
      ColumnarBatch batch = batch(rows);
      // The batch's row view is one object moved from row to row, as a reader hands it out.
      for (int i = 0; i < rows.length; i++) {
        InternalRow view = batch.getRow(i);
        overBatch.replace(view);
        overRow.replace(new GenericInternalRow(rows[i]));
        same(overRow, overBatch, "batch " + b + " row " + i);
        // The detached copy holds the same values.
        ProjectedRow copied = new ProjectedRow(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, projected);
        same(overRow, copied.replace(overBatch.copy()), "batch " + b + " row " + i + ", copied");
      }
      batch.close();
    }
  }
}
