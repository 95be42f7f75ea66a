package io.lagoon.core.read;

import io.lagoon.core.fs.SerializableConfiguration;
import org.apache.spark.broadcast.Broadcast;
import io.lagoon.core.io.OrcFormatWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MapColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.util.RebaseDateTime;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
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
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.collection.AbstractIterator;

/**
 * Reads ORC data files the way Paimon writes and reads them, straight through orc-core into Spark
 * column vectors (Spark's own ORC reader cannot even open a file with a
 * {@code timestamp with local time zone} column, refuses a zone-less {@code timestamp} as
 * TIMESTAMP_NTZ, and rebases every date as Julian):
 * <ul>
 *   <li>columns are matched by name (a column the file lacks reads as null), nested struct
 *       fields too;
 *   <li>dates are proleptic epoch days as stored; {@code timestamp with local time zone} holds
 *       epoch instants; a zone-less {@code timestamp} read as TIMESTAMP_NTZ is the wall clock of
 *       its epoch millis in the JVM zone (by offset), the inverse of {@link OrcFormatWriter};
 *   <li>files Spark's ORC writer produced (key {@code org.apache.spark.version}: earlier Lagoon
 *       files) keep Spark's conventions: Julian-rebased dates and timestamps, TIMESTAMP as a
 *       zone-less instant, TIMESTAMP_NTZ as bigint microseconds.
 * </ul>
 * Returns {@link ColumnarBatch}es or, when built for rows, {@code UnsafeRow}s.
 */
final class OrcDataReader implements Serializable {
  private static final String SPARK_VERSION_KEY = "org.apache.spark.version";
  private static final int BATCH_SIZE = 4096;

  private final StructType required;
  private final Broadcast<SerializableConfiguration> conf;
  private final boolean batch;

  OrcDataReader(StructType required, Broadcast<SerializableConfiguration> conf, boolean batch) {
    this.required = required;
    this.conf = conf;
    this.batch = batch;
  }

  /** Rows (or batches) of the stripes that start in {@code [start, start + length)}. */
  scala.collection.Iterator<InternalRow> open(Path path, long start, long length) {
    try {
      Reader reader = OrcFile.createReader(path, OrcFile.readerOptions(conf.value().get()));
      @SuppressWarnings({"unchecked", "rawtypes"})
      scala.collection.Iterator<InternalRow> it = (scala.collection.Iterator) new BatchIterator(reader, start, length);
      return it;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open ORC file " + path + ": " + e.getMessage(), e);
    }
  }

  /** Elements are ColumnarBatches (batch mode) or UnsafeRows, as Spark's file readers return them. */
  private final class BatchIterator extends AbstractIterator<Object> implements Closeable {
    private final RecordReader rows;
    private final VectorizedRowBatch orcBatch;
    private final Converter converter;
    private final ColumnarBatch sparkBatch;
    private final WritableColumnVector[] vectors;
    private final UnsafeProjection projection;
    private boolean loaded;
    private boolean done;
    private boolean closed;
    private int rowInBatch;

    BatchIterator(Reader reader, long start, long length) throws IOException {
      TypeDescription fileSchema = reader.getSchema();
      boolean sparkFile = reader.getMetadataKeys().contains(SPARK_VERSION_KEY);
      this.converter = new Converter(fileSchema, required, sparkFile);
      this.rows = reader.rows(reader.options().range(start, length).include(converter.include));
      this.orcBatch = fileSchema.createRowBatch(BATCH_SIZE);
      this.vectors = OnHeapColumnVector.allocateColumns(BATCH_SIZE, required);
      this.sparkBatch = new ColumnarBatch(vectors);
      this.projection = batch ? null : UnsafeProjection.create(required);
    }

    private boolean load() {
      try {
        long first = rows.getRowNumber();
        while (rows.nextBatch(orcBatch)) {
          if (orcBatch.size == 0) {
            first = rows.getRowNumber();
            continue;
          }
          for (WritableColumnVector v : vectors) v.reset();
          converter.convert(orcBatch, vectors, first);
          sparkBatch.setNumRows(orcBatch.size);
          rowInBatch = 0;
          return true;
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      close();
      return false;
    }

    @Override
    public boolean hasNext() {
      if (done) return false;
      if (!loaded || (!batch && rowInBatch >= sparkBatch.numRows())) {
        if (!load()) {
          done = true;
          return false;
        }
        loaded = true;
      }
      return true;
    }

    @Override
    public Object next() {
      if (!hasNext()) throw new java.util.NoSuchElementException();
      if (batch) {
        loaded = false; // the next hasNext() reads the next batch
        return sparkBatch;
      }
      return projection.apply(sparkBatch.getRow(rowInBatch++));
    }

    @Override
    public void close() {
      if (closed) return;
      closed = true;
      try {
        rows.close();
      } catch (IOException ignore) {
        // read-only
      }
    }
  }

  /** Copies ORC vectors of one batch into Spark vectors of the required schema. */
  private static final class Converter {
    final boolean[] include;
    private final int[] fileColumn;
    private final TypeDescription[] fileTypes;
    private final DataType[] types;
    private final boolean sparkFile;
    /** Columns that get each row's position in the file rather than a file column. */
    private final boolean[] rowPosition;
    private final TimeZone zone = TimeZone.getDefault();

    Converter(TypeDescription fileSchema, StructType required, boolean sparkFile) {
      this.sparkFile = sparkFile;
      this.include = new boolean[fileSchema.getMaximumId() + 1];
      include[0] = true;
      StructField[] fields = required.fields();
      this.fileColumn = new int[fields.length];
      this.fileTypes = new TypeDescription[fields.length];
      this.types = new DataType[fields.length];
      this.rowPosition = new boolean[fields.length];
      for (int i = 0; i < fields.length; i++) {
        types[i] = fields[i].dataType();
        rowPosition[i] = fields[i].name().equals(DataFileReader.ROW_POSITION);
        fileColumn[i] = fieldIndex(fileSchema, fields[i].name());
        if (fileColumn[i] >= 0) {
          TypeDescription t = fileSchema.getChildren().get(fileColumn[i]);
          fileTypes[i] = t;
          for (int id = t.getId(); id <= t.getMaximumId(); id++) include[id] = true;
        }
      }
    }

    /** @param firstRow the position in the file of the batch's first row */
    void convert(VectorizedRowBatch in, WritableColumnVector[] out, long firstRow) {
      for (int i = 0; i < out.length; i++) {
        if (rowPosition[i]) {
          for (int r = 0; r < in.size; r++) out[i].putLong(r, firstRow + r);
          continue;
        }
        if (fileColumn[i] < 0) {
          out[i].putNulls(0, in.size);
          continue;
        }
        ColumnVector src = in.cols[fileColumn[i]];
        for (int r = 0; r < in.size; r++) copy(src, fileTypes[i], r, out[i], r, types[i]);
      }
    }

    private void copy(ColumnVector src, TypeDescription srcType, int srcRow, WritableColumnVector dst, int dstRow,
                      DataType type) {
      int i = src.isRepeating ? 0 : srcRow;
      if (!src.noNulls && src.isNull[i]) {
        dst.putNull(dstRow);
        return;
      }
      if (type instanceof BooleanType) {
        dst.putBoolean(dstRow, ((LongColumnVector) src).vector[i] != 0);
      } else if (type instanceof ByteType) {
        dst.putByte(dstRow, (byte) ((LongColumnVector) src).vector[i]);
      } else if (type instanceof ShortType) {
        dst.putShort(dstRow, (short) ((LongColumnVector) src).vector[i]);
      } else if (type instanceof IntegerType) {
        dst.putInt(dstRow, (int) ((LongColumnVector) src).vector[i]);
      } else if (type instanceof DateType) {
        int days = (int) ((LongColumnVector) src).vector[i];
        dst.putInt(dstRow, sparkFile ? RebaseDateTime.rebaseJulianToGregorianDays(days) : days);
      } else if (type instanceof LongType) {
        dst.putLong(dstRow, ((LongColumnVector) src).vector[i]);
      } else if (type instanceof FloatType) {
        dst.putFloat(dstRow, (float) doubleValue(src, i));
      } else if (type instanceof DoubleType) {
        dst.putDouble(dstRow, doubleValue(src, i));
      } else if (type instanceof DecimalType) {
        DecimalType dt = (DecimalType) type;
        BigDecimal bd = ((DecimalColumnVector) src).vector[i].getHiveDecimal().bigDecimalValue();
        Decimal d = Decimal.apply(bd);
        if (!d.changePrecision(dt.precision(), dt.scale())) {
          throw new IllegalStateException("ORC decimal " + bd + " does not fit " + dt.simpleString());
        }
        dst.putDecimal(dstRow, d, dt.precision());
      } else if (type instanceof StringType || type instanceof BinaryType) {
        BytesColumnVector b = (BytesColumnVector) src;
        dst.putByteArray(dstRow, b.vector[i], b.start[i], b.length[i]);
      } else if (type instanceof TimestampType) {
        TimestampColumnVector ts = (TimestampColumnVector) src;
        long micros = sparkFile && srcType.getCategory() == TypeDescription.Category.TIMESTAMP
            ? RebaseDateTime.rebaseJulianToGregorianMicros(micros(ts.time[i], ts.nanos[i]))
            : micros(ts.time[i], ts.nanos[i]);
        dst.putLong(dstRow, micros);
      } else if (type instanceof TimestampNTZType) {
        if (src instanceof LongColumnVector) { // Spark's ORC writer: bigint microseconds
          dst.putLong(dstRow, ((LongColumnVector) src).vector[i]);
        } else {
          TimestampColumnVector ts = (TimestampColumnVector) src;
          long wall = srcType.getCategory() == TypeDescription.Category.TIMESTAMP_INSTANT
              ? ts.time[i] : OrcFormatWriter.epochToLocalMillis(ts.time[i], zone);
          dst.putLong(dstRow, micros(wall, ts.nanos[i]));
        }
      } else if (type instanceof ArrayType) {
        ListColumnVector list = (ListColumnVector) src;
        int offset = (int) list.offsets[i];
        int n = (int) list.lengths[i];
        WritableColumnVector child = dst.arrayData();
        int at = child.getElementsAppended();
        reserve(child, at + n, ((ArrayType) type).elementType());
        child.addElementsAppended(n);
        dst.putArray(dstRow, at, n);
        TypeDescription et = srcType.getChildren().get(0);
        for (int k = 0; k < n; k++) copy(list.child, et, offset + k, child, at + k, ((ArrayType) type).elementType());
      } else if (type instanceof MapType) {
        MapColumnVector map = (MapColumnVector) src;
        MapType mt = (MapType) type;
        int offset = (int) map.offsets[i];
        int n = (int) map.lengths[i];
        WritableColumnVector keys = dst.getChild(0);
        WritableColumnVector values = dst.getChild(1);
        int at = keys.getElementsAppended();
        reserve(keys, at + n, mt.keyType());
        reserve(values, at + n, mt.valueType());
        keys.addElementsAppended(n);
        values.addElementsAppended(n);
        dst.putArray(dstRow, at, n);
        List<TypeDescription> kv = srcType.getChildren();
        for (int k = 0; k < n; k++) {
          copy(map.keys, kv.get(0), offset + k, keys, at + k, mt.keyType());
          copy(map.values, kv.get(1), offset + k, values, at + k, mt.valueType());
        }
      } else if (type instanceof StructType) {
        StructColumnVector struct = (StructColumnVector) src;
        StructField[] fields = ((StructType) type).fields();
        for (int j = 0; j < fields.length; j++) {
          WritableColumnVector child = dst.getChild(j);
          int f = fieldIndex(srcType, fields[j].name());
          if (f < 0) {
            child.putNull(dstRow);
          } else {
            copy(struct.fields[f], srcType.getChildren().get(f), i, child, dstRow, fields[j].dataType());
          }
        }
        dst.putNotNull(dstRow);
      } else {
        throw new IllegalArgumentException("Lagoon cannot read ORC data as " + type.simpleString());
      }
    }

    private static double doubleValue(ColumnVector src, int i) {
      return src instanceof DoubleColumnVector ? ((DoubleColumnVector) src).vector[i] : ((LongColumnVector) src).vector[i];
    }

    private static long micros(long millis, int nanos) {
      return Math.floorDiv(millis, 1000L) * 1_000_000L + nanos / 1000;
    }

    /** Grows a vector (and, for structs, its children, which share its row positions). */
    private static void reserve(WritableColumnVector v, int capacity, DataType type) {
      v.reserve(capacity);
      if (type instanceof StructType) {
        StructField[] fields = ((StructType) type).fields();
        for (int j = 0; j < fields.length; j++) reserve(v.getChild(j), capacity, fields[j].dataType());
      }
    }

    private static int fieldIndex(TypeDescription struct, String name) {
      List<String> names = struct.getFieldNames();
      int exact = names.indexOf(name);
      if (exact >= 0) return exact;
      for (int k = 0; k < names.size(); k++) {
        if (names.get(k).toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) return k;
      }
      return -1;
    }
  }
}
