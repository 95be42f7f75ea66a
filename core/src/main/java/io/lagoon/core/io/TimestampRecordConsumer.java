package io.lagoon.core.io;

import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Sits between Spark's Parquet write support, which hands every timestamp over as epoch
 * microseconds, and the file, whose schema may declare a timestamp column as millis or INT96
 * ({@link ParquetTimestampLayout}). It follows the fields Spark opens to know the current column
 * and converts a timestamp to what that column declares; every other call passes through.
 */
final class TimestampRecordConsumer extends RecordConsumer {
  static final long MICROS_PER_DAY = 86_400_000_000L;
  /** Julian day number of 1970-01-01, the origin of INT96 days. */
  static final int JULIAN_DAY_OF_EPOCH = 2_440_588;

  private final RecordConsumer out;
  private final MessageType schema;
  private final Deque<GroupType> groups = new ArrayDeque<>();
  private Type field;

  TimestampRecordConsumer(RecordConsumer out, MessageType schema) {
    this.out = out;
    this.schema = schema;
  }

  /** Whether a file of this schema holds a timestamp stored other than as Spark's microseconds. */
  static boolean converts(Type t) {
    if (!t.isPrimitive()) {
      for (Type child : t.asGroupType().getFields()) if (converts(child)) return true;
      return false;
    }
    if (t.asPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT96) return true;
    LogicalTypeAnnotation a = t.getLogicalTypeAnnotation();
    return a instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation
        && ((LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) a).getUnit() == TimeUnit.MILLIS;
  }

  @Override
  public void startMessage() {
    groups.clear();
    groups.push(schema);
    out.startMessage();
  }

  @Override
  public void endMessage() {
    out.endMessage();
  }

  @Override
  public void startField(String name, int index) {
    field = groups.peek().getType(index);
    out.startField(name, index);
  }

  @Override
  public void endField(String name, int index) {
    out.endField(name, index);
  }

  @Override
  public void startGroup() {
    groups.push(field.asGroupType());
    out.startGroup();
  }

  @Override
  public void endGroup() {
    // Back at the field whose group ended: a repeated group (a list's or map's entries) opens its
    // next group without a new startField.
    field = groups.pop();
    out.endGroup();
  }

  @Override
  public void addLong(long value) {
    if (field.isPrimitive()) {
      if (field.asPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT96) {
        out.addBinary(int96(value));
        return;
      }
      LogicalTypeAnnotation a = field.getLogicalTypeAnnotation();
      if (a instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation
          && ((LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) a).getUnit() == TimeUnit.MILLIS) {
        // Floor, as Paimon's millisecond view of a timestamp: 1969-12-31 23:59:59.9995 stays in second 59.
        out.addLong(Math.floorDiv(value, 1000L));
        return;
      }
    }
    out.addLong(value);
  }

  /** INT96: nanoseconds of the day (8 bytes) then the Julian day (4 bytes), little-endian. */
  static Binary int96(long micros) {
    long day = Math.floorDiv(micros, MICROS_PER_DAY);
    long nanosOfDay = Math.floorMod(micros, MICROS_PER_DAY) * 1000L;
    int julianDay = Math.toIntExact(day + JULIAN_DAY_OF_EPOCH);
    byte[] b = new byte[12];
    for (int i = 0; i < 8; i++) b[i] = (byte) (nanosOfDay >>> (8 * i));
    for (int i = 0; i < 4; i++) b[8 + i] = (byte) (julianDay >>> (8 * i));
    return Binary.fromConstantByteArray(b);
  }

  @Override
  public void addInteger(int value) {
    out.addInteger(value);
  }

  @Override
  public void addBoolean(boolean value) {
    out.addBoolean(value);
  }

  @Override
  public void addBinary(Binary value) {
    out.addBinary(value);
  }

  @Override
  public void addFloat(float value) {
    out.addFloat(value);
  }

  @Override
  public void addDouble(double value) {
    out.addDouble(value);
  }

  @Override
  public void flush() {
    out.flush();
  }
}
