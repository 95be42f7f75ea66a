package io.lagoon.core.io;

import java.lang.reflect.Field;
import java.math.BigInteger;
import java.util.List;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.catalyst.InternalRow;
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
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Writes the rows of a flat schema (every column a primitive at the top level, the usual table)
 * straight into Parquet's column writers. Spark's write support goes through Parquet's record
 * consumer, which tracks the fields each record opens to write nulls for the missing ones, and
 * copies every string: about an eighth of primary-key compaction's task samples. Here a column's
 * value, or its null, goes to the column's writer with the levels the consumer would give it
 * (repetition 0; definition 1 for a value of an optional column, 0 for a null or a value of a
 * required one), so pages, statistics and dictionaries receive exactly the same calls and the
 * file is byte for byte the one the consumer path writes. Each value is converted as Spark's
 * write support converts it, and timestamps are stored by the unit their column declares
 * ({@link ParquetTimestampLayout}). A string a rewrite read from an input dictionary goes by
 * that entry ({@link DictionaryEntry}), the same value without its bytes being read.
 *
 * <p>Parquet hands the write support a record consumer, not the column store behind it; the store
 * is taken from the consumer by reflection, and {@link #of} answers null (the caller keeps the
 * consumer path) for nested schemas, types not listed here, or a Parquet whose consumer differs.
 */
final class FlatColumnWrites {
  private static final Field COLUMNS = columnsField();
  /** A column writer's values encoder, which Parquet keeps private. */
  private static final Field VALUES = valuesField();

  private final ColumnWriteStore store;
  private final Column[] columns;

  private FlatColumnWrites(ColumnWriteStore store, Column[] columns) {
    this.store = store;
    this.columns = columns;
  }

  /**
   * One column's writes. A small class per conversion, rather than one loop that switches on the
   * type: each is compiled once for every table, where a shared switch is recompiled whenever a
   * table brings a type (or a row class) its compiled code had not seen.
   */
  private abstract static class Column {
    final ColumnWriter out;
    /** The definition level of a value: 1 in an optional column, 0 in a required one. */
    final int level;

    Column(ColumnWriter out, int level) {
      this.out = out;
      this.level = level;
    }

    /** Writes field {@code i} of {@code row}, which is not null. */
    abstract void write(InternalRow row, int i);
  }

  /**
   * Direct writes into the columns behind {@code consumer}, or null where the consumer path must
   * be kept. Called again for each row group, whose consumer and columns are new.
   */
  static FlatColumnWrites of(RecordConsumer consumer, MessageType schema, StructType spark) {
    if (COLUMNS == null || !COLUMNS.getDeclaringClass().isInstance(consumer)) return null;
    int n = spark.fields().length;
    if (schema.getFieldCount() != n) return null;
    for (int i = 0; i < n; i++) {
      Type t = schema.getType(i);
      if (!t.isPrimitive() || t.isRepetition(Type.Repetition.REPEATED)) return null;
    }
    ColumnWriteStore store;
    try {
      store = (ColumnWriteStore) COLUMNS.get(consumer);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
    List<ColumnDescriptor> descriptors = schema.getColumns();
    Column[] columns = new Column[n];
    for (int i = 0; i < n; i++) {
      ColumnDescriptor c = descriptors.get(i);
      columns[i] = column(spark.fields()[i].dataType(), c, store.getColumnWriter(c), c.getMaxDefinitionLevel());
      if (columns[i] == null) return null;
    }
    return new FlatColumnWrites(store, columns);
  }

  /** How a column's Spark value becomes its Parquet value, as Spark's write support converts it; null if not here. */
  private static Column column(DataType type, ColumnDescriptor c, ColumnWriter w, int d) {
    PrimitiveType stored = c.getPrimitiveType();
    PrimitiveTypeName p = stored.getPrimitiveTypeName();
    if (type instanceof BooleanType) return p == PrimitiveTypeName.BOOLEAN ? new Booleans(w, d) : null;
    if (type instanceof ByteType) return p == PrimitiveTypeName.INT32 ? new Bytes(w, d) : null;
    if (type instanceof ShortType) return p == PrimitiveTypeName.INT32 ? new Shorts(w, d) : null;
    if (type instanceof IntegerType || type instanceof DateType) return p == PrimitiveTypeName.INT32 ? new Ints(w, d) : null;
    if (type instanceof LongType) return p == PrimitiveTypeName.INT64 ? new Longs(w, d) : null;
    if (type instanceof FloatType) return p == PrimitiveTypeName.FLOAT ? new Floats(w, d) : null;
    if (type instanceof DoubleType) return p == PrimitiveTypeName.DOUBLE ? new Doubles(w, d) : null;
    if (type instanceof StringType) return p == PrimitiveTypeName.BINARY ? new Strings(w, d) : null;
    if (type instanceof BinaryType) return p == PrimitiveTypeName.BINARY ? new Binaries(w, d) : null;
    if (type instanceof DecimalType) {
      DecimalType t = (DecimalType) type;
      if (p == PrimitiveTypeName.INT32) return new SmallDecimals(w, d, t);
      if (p == PrimitiveTypeName.INT64) return new Decimals(w, d, t);
      return p == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY ? new WideDecimals(w, d, t, stored.getTypeLength()) : null;
    }
    if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      if (p == PrimitiveTypeName.INT96) return new Int96Timestamps(w, d);
      if (p != PrimitiveTypeName.INT64) return null;
      LogicalTypeAnnotation a = stored.getLogicalTypeAnnotation();
      if (!(a instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation)) return null;
      switch (((LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) a).getUnit()) {
        case MILLIS: return new MillisTimestamps(w, d);
        case MICROS: return new Longs(w, d);
        default: return null;
      }
    }
    return null;
  }

  void write(InternalRow row) {
    Column[] cs = columns;
    for (int i = 0; i < cs.length; i++) {
      Column c = cs[i];
      if (row.isNullAt(i)) c.out.writeNull(0, 0);
      else c.write(row, i);
    }
    store.endRecord();
  }

  private static final class Booleans extends Column {
    Booleans(ColumnWriter out, int level) { super(out, level); }
    @Override void write(InternalRow row, int i) { out.write(row.getBoolean(i), 0, level); }
  }

  private static final class Bytes extends Column {
    Bytes(ColumnWriter out, int level) { super(out, level); }
    @Override void write(InternalRow row, int i) { out.write((int) row.getByte(i), 0, level); }
  }

  private static final class Shorts extends Column {
    Shorts(ColumnWriter out, int level) { super(out, level); }
    @Override void write(InternalRow row, int i) { out.write((int) row.getShort(i), 0, level); }
  }

  /** Ints and dates (days, never rebased). */
  private static final class Ints extends Column {
    Ints(ColumnWriter out, int level) { super(out, level); }
    @Override void write(InternalRow row, int i) { out.write(row.getInt(i), 0, level); }
  }

  /** Longs and timestamps stored as micros (never rebased). */
  private static final class Longs extends Column {
    Longs(ColumnWriter out, int level) { super(out, level); }
    @Override void write(InternalRow row, int i) { out.write(row.getLong(i), 0, level); }
  }

  private static final class MillisTimestamps extends Column {
    MillisTimestamps(ColumnWriter out, int level) { super(out, level); }
    // Floor, as Paimon's millisecond view of a timestamp: 1969-12-31 23:59:59.9995 stays in second 59.
    @Override void write(InternalRow row, int i) { out.write(Math.floorDiv(row.getLong(i), 1000L), 0, level); }
  }

  private static final class Int96Timestamps extends Column {
    Int96Timestamps(ColumnWriter out, int level) { super(out, level); }
    @Override void write(InternalRow row, int i) { out.write(TimestampRecordConsumer.int96(row.getLong(i)), 0, level); }
  }

  private static final class Floats extends Column {
    Floats(ColumnWriter out, int level) { super(out, level); }
    @Override void write(InternalRow row, int i) { out.write(row.getFloat(i), 0, level); }
  }

  private static final class Doubles extends Column {
    Doubles(ColumnWriter out, int level) { super(out, level); }
    @Override void write(InternalRow row, int i) { out.write(row.getDouble(i), 0, level); }
  }

  /**
   * A string column. A value read as an entry of an input file's dictionary (a rewrite's rows say
   * which) goes to the column's dictionary by that entry, without its string being read.
   */
  private static final class Strings extends Column {
    /** The column's dictionary encoder; null where the column has none (or another one). */
    private final BinaryDictionaryWriter dictionary;
    private final DictionaryEntry entry = new DictionaryEntry();

    Strings(ColumnWriter out, int level) {
      super(out, level);
      this.dictionary = dictionaryOf(out);
    }

    @Override void write(InternalRow row, int i) {
      if (dictionary != null && row instanceof DictionaryEntry.Source
          && ((DictionaryEntry.Source) row).dictionaryEntry(i, entry)) {
        Binary v = dictionary.entryOf(entry);
        if (v != null) {
          out.write(v, 0, level);
          return;
        }
      }
      out.write(binary(row.getUTF8String(i)), 0, level);
    }
  }

  /** The dictionary encoder behind a column's writer, if it is Lagoon's. */
  private static BinaryDictionaryWriter dictionaryOf(ColumnWriter w) {
    if (VALUES == null || !VALUES.getDeclaringClass().isInstance(w)) return null;
    try {
      Object values = VALUES.get(w);
      if (!(values instanceof FallbackValuesWriter)) return null;
      Object first = ((FallbackValuesWriter<?, ?>) values).initialWriter;
      return first instanceof BinaryDictionaryWriter ? (BinaryDictionaryWriter) first : null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  private static final class Binaries extends Column {
    Binaries(ColumnWriter out, int level) { super(out, level); }
    @Override void write(InternalRow row, int i) { out.write(Binary.fromReusedByteArray(row.getBinary(i)), 0, level); }
  }

  /** A decimal column: the value is read at the column's precision and scale. */
  private abstract static class DecimalColumn extends Column {
    private final int precision;
    private final int scale;

    DecimalColumn(ColumnWriter out, int level, DecimalType t) {
      super(out, level);
      this.precision = t.precision();
      this.scale = t.scale();
    }

    final Decimal value(InternalRow row, int i) {
      return row.getDecimal(i, precision, scale);
    }
  }

  /** Precision up to 9: the unscaled value as INT32. */
  private static final class SmallDecimals extends DecimalColumn {
    SmallDecimals(ColumnWriter out, int level, DecimalType t) { super(out, level, t); }
    @Override void write(InternalRow row, int i) { out.write((int) value(row, i).toUnscaledLong(), 0, level); }
  }

  /** Precision up to 18: the unscaled value as INT64. */
  private static final class Decimals extends DecimalColumn {
    Decimals(ColumnWriter out, int level, DecimalType t) { super(out, level, t); }
    @Override void write(InternalRow row, int i) { out.write(value(row, i).toUnscaledLong(), 0, level); }
  }

  /** Wider: big-endian two's complement of the unscaled value, sign-extended to the column's width. */
  private static final class WideDecimals extends DecimalColumn {
    private final int width;

    WideDecimals(ColumnWriter out, int level, DecimalType t, int width) {
      super(out, level, t);
      this.width = width;
    }

    @Override void write(InternalRow row, int i) {
      out.write(fixed(value(row, i).toJavaBigDecimal().unscaledValue(), width), 0, level);
    }
  }

  /** A string's bytes where they lie when they are on the heap: no copy per value. */
  private static Binary binary(UTF8String s) {
    Object base = s.getBaseObject();
    if (base instanceof byte[]) {
      return Binary.fromReusedByteArray((byte[]) base, (int) (s.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET), s.numBytes());
    }
    return Binary.fromReusedByteArray(s.getBytes());
  }

  private static Binary fixed(BigInteger unscaled, int width) {
    byte[] bytes = unscaled.toByteArray();
    if (bytes.length == width) return Binary.fromReusedByteArray(bytes);
    byte[] out = new byte[width];
    byte sign = (byte) (bytes[0] < 0 ? -1 : 0);
    int pad = width - bytes.length;
    for (int i = 0; i < pad; i++) out[i] = sign;
    System.arraycopy(bytes, 0, out, pad, bytes.length);
    return Binary.fromReusedByteArray(out);
  }

  private static Field valuesField() {
    try {
      Field f = Class.forName("org.apache.parquet.column.impl.ColumnWriterBase").getDeclaredField("dataColumn");
      if (!ValuesWriter.class.isAssignableFrom(f.getType())) return null;
      f.setAccessible(true);
      return f;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  private static Field columnsField() {
    try {
      Class<?> c = Class.forName("org.apache.parquet.io.MessageColumnIO$MessageColumnIORecordConsumer");
      Field f = c.getDeclaredField("columns");
      if (!ColumnWriteStore.class.isAssignableFrom(f.getType())) return null;
      f.setAccessible(true);
      return f;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
