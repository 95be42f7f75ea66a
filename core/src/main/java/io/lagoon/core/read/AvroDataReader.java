package io.lagoon.core.read;

import io.lagoon.core.fs.SerializableConfiguration;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
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
import scala.collection.AbstractIterator;
import scala.collection.Iterator;

/**
 * Reads Avro data files as Paimon writes them (the rows a postponed-bucket table keeps in
 * {@code bucket-postpone} are Avro since Paimon 1.2), record by record into Spark rows:
 * columns matched by name (a column the file lacks reads as null, nested struct fields too);
 * {@code timestamp-millis} / {@code local-timestamp-millis} scaled to Spark's microseconds (the
 * stored number is the wall clock, or the instant, as Paimon keeps either); decimals as their
 * unscaled big-endian bytes; maps with string keys as Avro maps, others as arrays of
 * {@code key}/{@code value} records. Avro files have no row groups to split: the whole file
 * belongs to the range that starts at byte 0.
 */
final class AvroDataReader implements Serializable {
  private final StructType required;
  private final Broadcast<SerializableConfiguration> conf;

  AvroDataReader(StructType required, Broadcast<SerializableConfiguration> conf) {
    this.required = required;
    this.conf = conf;
  }

  Iterator<InternalRow> open(Path path, long start) {
    if (start > 0) {
      @SuppressWarnings("unchecked")
      Iterator<InternalRow> none = (Iterator<InternalRow>) (Object) scala.collection.Iterator$.MODULE$.empty();
      return none;
    }
    try {
      FileSystem fs = path.getFileSystem(conf.value().get());
      InputStream in = fs.open(path);
      try {
        DataFileStream<GenericRecord> records = new DataFileStream<>(in, new GenericDatumReader<>());
        return new Rows(path, records, rowConverter(records.getSchema(), required, path));
      } catch (IOException | RuntimeException e) {
        in.close();
        throw e;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open Avro data file " + path + ": " + e.getMessage(), e);
    }
  }

  /** One file's records as rows (a new row each: rows are small and Avro allocates anyway). */
  private static final class Rows extends AbstractIterator<InternalRow> implements Closeable {
    private final Path path;
    private final DataFileStream<GenericRecord> records;
    private final Converter converter;
    private GenericRecord reuse;

    Rows(Path path, DataFileStream<GenericRecord> records, Converter converter) {
      this.path = path;
      this.records = records;
      this.converter = converter;
    }

    @Override
    public boolean hasNext() {
      return records.hasNext();
    }

    @Override
    public InternalRow next() {
      try {
        reuse = records.next(reuse);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read Avro data file " + path + ": " + e.getMessage(), e);
      }
      return (InternalRow) converter.convert(reuse);
    }

    @Override
    public void close() throws IOException {
      records.close();
    }
  }

  /** Turns one Avro value into Spark's internal value of a type. */
  private interface Converter extends Serializable {
    Object convert(Object avro);
  }

  private static Converter rowConverter(Schema schema, StructType type, Path path) {
    Schema record = nonNull(schema);
    if (record.getType() != Schema.Type.RECORD) throw unsupported(path, schema, type);
    StructField[] fields = type.fields();
    int[] positions = new int[fields.length];
    Converter[] converters = new Converter[fields.length];
    for (int i = 0; i < fields.length; i++) {
      Schema.Field f = record.getField(fields[i].name());
      positions[i] = f == null ? -1 : f.pos();
      converters[i] = f == null ? null : converter(f.schema(), fields[i].dataType(), path);
    }
    return avro -> {
      GenericRecord r = (GenericRecord) avro;
      Object[] values = new Object[fields.length];
      for (int i = 0; i < values.length; i++) {
        Object v = positions[i] < 0 ? null : r.get(positions[i]);
        values[i] = v == null ? null : converters[i].convert(v);
      }
      return new GenericInternalRow(values);
    };
  }

  private static Converter converter(Schema schema, DataType type, Path path) {
    Schema s = nonNull(schema);
    LogicalType logical = s.getLogicalType();
    if (type instanceof StructType) return rowConverter(s, (StructType) type, path);
    if (type instanceof BooleanType || type instanceof IntegerType || type instanceof LongType
        || type instanceof FloatType || type instanceof DoubleType || type instanceof DateType) {
      return v -> v;
    }
    if (type instanceof ByteType) return v -> ((Number) v).byteValue();
    if (type instanceof ShortType) return v -> ((Number) v).shortValue();
    if (type instanceof StringType) return v -> UTF8String.fromString(v.toString());
    if (type instanceof BinaryType) return AvroDataReader::bytes;
    if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      boolean millis = logical != null && logical.getName().endsWith("-millis");
      return millis ? v -> ((Long) v) * 1000L : v -> v;
    }
    if (type instanceof DecimalType) {
      DecimalType d = (DecimalType) type;
      int precision = d.precision();
      int scale = d.scale();
      return v -> Decimal.apply(new java.math.BigDecimal(new BigInteger(bytes(v)), scale), precision, scale);
    }
    if (type instanceof ArrayType) {
      Converter element = converter(s.getElementType(), ((ArrayType) type).elementType(), path);
      return v -> new GenericArrayData(convertAll((Collection<?>) v, element));
    }
    if (type instanceof MapType) {
      MapType m = (MapType) type;
      if (s.getType() == Schema.Type.MAP) {
        Converter value = converter(s.getValueType(), m.valueType(), path);
        Converter key = converter(Schema.create(Schema.Type.STRING), m.keyType(), path);
        return v -> {
          Map<?, ?> in = (Map<?, ?>) v;
          Object[] keys = new Object[in.size()];
          Object[] values = new Object[in.size()];
          int i = 0;
          for (Map.Entry<?, ?> e : in.entrySet()) {
            keys[i] = key.convert(e.getKey());
            values[i++] = e.getValue() == null ? null : value.convert(e.getValue());
          }
          return new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(values));
        };
      }
      // Non-string keys: an array of {key, value} records.
      Schema entry = nonNull(s.getElementType());
      Converter key = converter(entry.getField("key").schema(), m.keyType(), path);
      Converter value = converter(entry.getField("value").schema(), m.valueType(), path);
      return v -> {
        Collection<?> in = (Collection<?>) v;
        Object[] keys = new Object[in.size()];
        Object[] values = new Object[in.size()];
        int i = 0;
        for (Object o : in) {
          GenericRecord e = (GenericRecord) o;
          keys[i] = key.convert(e.get("key"));
          Object val = e.get("value");
          values[i++] = val == null ? null : value.convert(val);
        }
        return new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(values));
      };
    }
    throw unsupported(path, schema, type);
  }

  private static Object[] convertAll(Collection<?> in, Converter c) {
    List<Object> out = new ArrayList<>(in.size());
    for (Object o : in) out.add(o == null ? null : c.convert(o));
    return out.toArray();
  }

  private static byte[] bytes(Object v) {
    if (v instanceof GenericFixed) return ((GenericFixed) v).bytes().clone();
    ByteBuffer b = ((ByteBuffer) v).duplicate();
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return out;
  }

  /** The type of a nullable union {@code [null, T]}, or the schema itself. */
  private static Schema nonNull(Schema s) {
    if (s.getType() != Schema.Type.UNION) return s;
    for (Schema t : s.getTypes()) if (t.getType() != Schema.Type.NULL) return t;
    return s;
  }

  private static IllegalStateException unsupported(Path path, Schema schema, DataType type) {
    return new IllegalStateException("Avro data file " + path + " stores " + schema + " where the table has "
        + type.catalogString() + ", which Lagoon cannot read");
  }
}
