package io.lagoon.core.io;

import io.lagoon.core.types.SparkTypes;
import java.io.IOException;
import java.util.Locale;
import java.util.TimeZone;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.common.type.HiveDecimal;
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
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * Writes ORC in the layout Paimon writes and reads, straight through orc-core (Spark's ORC writer
 * stores TIMESTAMP_NTZ as a bigint, TIMESTAMP as a zone-less timestamp and rebases dates to the
 * Julian calendar, none of which Paimon reads back):
 * <ul>
 *   <li>types: CHAR(n)/VARCHAR(n) as {@code char(n)}/{@code varchar(n)}, BINARY as {@code binary},
 *       TIMESTAMP_NTZ (Paimon TIMESTAMP) as {@code timestamp}, TIMESTAMP (Paimon TIMESTAMP WITH
 *       LOCAL TIME ZONE) as {@code timestamp with local time zone}; field ids as the
 *       {@code paimon.id} attribute;
 *   <li>values as they are: dates as proleptic epoch days, instants as epoch millis and nanos;
 *       a zone-less timestamp as the epoch millis whose local wall clock (JVM zone, by its offset)
 *       is the value, which is how Paimon's ORC reader turns it back into a wall clock.
 * </ul>
 * ORC does not report its size while writing, so the size used for rolling is estimated from the
 * raw bytes of the rows seen.
 */
public final class OrcFormatWriter implements FormatWriter {
  private static final int BATCH_SIZE = 1024;
  /** The ORC attribute Paimon stores a field's id in. */
  public static final String FIELD_ID_ATTRIBUTE = "paimon.id";

  private final Path path;
  private final Configuration conf;
  private final StructType schema;
  private final Writer writer;
  private final VectorizedRowBatch batch;
  private final RowSizeEstimator estimator;
  private final TimeZone zone = TimeZone.getDefault();
  private long rawBytes;

  public OrcFormatWriter(Configuration base, Path path, StructType schema, String compression) throws IOException {
    this.path = path;
    this.conf = new Configuration(base);
    this.schema = schema;
    TypeDescription orcSchema = orcSchema(schema);
    this.writer = OrcFile.createWriter(path, OrcFile.writerOptions(conf)
        .setSchema(orcSchema)
        .compress(orcCodec(compression))
        .overwrite(false));
    this.batch = orcSchema.createRowBatch(BATCH_SIZE);
    this.estimator = new RowSizeEstimator(schema);
  }

  static CompressionKind orcCodec(String name) {
    switch (name) {
      case "none": case "uncompressed": return CompressionKind.NONE;
      case "snappy": case "zlib": case "lz4": case "zstd": return CompressionKind.valueOf(name.toUpperCase(Locale.ROOT));
      default: throw new IllegalArgumentException("Unsupported file.compression '" + name
          + "' for orc (zstd, snappy, zlib, lz4, none)");
    }
  }

  /** The ORC schema of a data file with these (Spark) columns, as Paimon lays it out. */
  public static TypeDescription orcSchema(StructType schema) {
    TypeDescription struct = TypeDescription.createStruct();
    for (StructField f : schema.fields()) {
      TypeDescription t = orcType(f.dataType(), f.metadata());
      if (f.metadata().contains(SparkTypes.PARQUET_FIELD_ID_KEY)) {
        t.setAttribute(FIELD_ID_ATTRIBUTE, Long.toString(f.metadata().getLong(SparkTypes.PARQUET_FIELD_ID_KEY)));
      }
      struct.addField(f.name(), t);
    }
    return struct;
  }

  private static TypeDescription orcType(DataType t, Metadata md) {
    if (t instanceof BooleanType) return TypeDescription.createBoolean();
    if (t instanceof ByteType) return TypeDescription.createByte();
    if (t instanceof ShortType) return TypeDescription.createShort();
    if (t instanceof IntegerType) return TypeDescription.createInt();
    if (t instanceof LongType) return TypeDescription.createLong();
    if (t instanceof FloatType) return TypeDescription.createFloat();
    if (t instanceof DoubleType) return TypeDescription.createDouble();
    if (t instanceof DecimalType) {
      DecimalType d = (DecimalType) t;
      // Scale first: ORC's default scale (10) would refuse a smaller precision.
      return TypeDescription.createDecimal().withScale(d.scale()).withPrecision(d.precision());
    }
    if (t instanceof StringType) {
      String charType = md != null && md.contains(SparkTypes.CHAR_VARCHAR_KEY)
          ? md.getString(SparkTypes.CHAR_VARCHAR_KEY).toLowerCase(Locale.ROOT) : "";
      // Spark pads CHAR values to n before they reach the writer, so ORC's own padding of char(n)
      // changes nothing and the stats taken from the rows bound the stored values.
      if (charType.startsWith("char(")) return TypeDescription.createChar().withMaxLength(length(charType));
      if (charType.startsWith("varchar(")) return TypeDescription.createVarchar().withMaxLength(length(charType));
      return TypeDescription.createString();
    }
    if (t instanceof BinaryType) return TypeDescription.createBinary();
    if (t instanceof DateType) return TypeDescription.createDate();
    if (t instanceof TimestampNTZType) return TypeDescription.createTimestamp();
    if (t instanceof TimestampType) return TypeDescription.createTimestampInstant();
    if (t instanceof ArrayType) return TypeDescription.createList(orcType(((ArrayType) t).elementType(), null));
    if (t instanceof MapType) {
      MapType m = (MapType) t;
      return TypeDescription.createMap(orcType(m.keyType(), null), orcType(m.valueType(), null));
    }
    if (t instanceof StructType) {
      TypeDescription s = TypeDescription.createStruct();
      for (StructField f : ((StructType) t).fields()) s.addField(f.name(), orcType(f.dataType(), f.metadata()));
      return s;
    }
    throw new IllegalArgumentException("Type " + t.simpleString() + " cannot be written to ORC");
  }

  private static int length(String charType) {
    return Integer.parseInt(charType.substring(charType.indexOf('(') + 1, charType.indexOf(')')).trim());
  }

  @Override
  public void write(InternalRow row) throws IOException {
    int r = batch.size++;
    StructField[] fields = schema.fields();
    for (int i = 0; i < fields.length; i++) {
      setValue(batch.cols[i], r, row, i, fields[i].dataType());
    }
    rawBytes += estimator.estimate(row);
    if (batch.size == batch.getMaxSize()) flush();
  }

  private void flush() throws IOException {
    if (batch.size > 0) {
      writer.addRowBatch(batch);
      batch.reset();
    }
  }

  private void setValue(ColumnVector v, int r, SpecializedGetters src, int ordinal, DataType t) {
    if (src.isNullAt(ordinal)) {
      v.noNulls = false;
      v.isNull[r] = true;
      return;
    }
    v.isNull[r] = false;
    if (t instanceof BooleanType) {
      ((LongColumnVector) v).vector[r] = src.getBoolean(ordinal) ? 1 : 0;
    } else if (t instanceof ByteType) {
      ((LongColumnVector) v).vector[r] = src.getByte(ordinal);
    } else if (t instanceof ShortType) {
      ((LongColumnVector) v).vector[r] = src.getShort(ordinal);
    } else if (t instanceof IntegerType || t instanceof DateType) {
      ((LongColumnVector) v).vector[r] = src.getInt(ordinal); // dates: proleptic epoch days, as is
    } else if (t instanceof LongType) {
      ((LongColumnVector) v).vector[r] = src.getLong(ordinal);
    } else if (t instanceof FloatType) {
      ((DoubleColumnVector) v).vector[r] = src.getFloat(ordinal);
    } else if (t instanceof DoubleType) {
      ((DoubleColumnVector) v).vector[r] = src.getDouble(ordinal);
    } else if (t instanceof DecimalType) {
      DecimalType d = (DecimalType) t;
      ((DecimalColumnVector) v).set(r,
          HiveDecimal.create(src.getDecimal(ordinal, d.precision(), d.scale()).toJavaBigDecimal()));
    } else if (t instanceof StringType) {
      byte[] bytes = src.getUTF8String(ordinal).getBytes();
      ((BytesColumnVector) v).setRef(r, bytes, 0, bytes.length);
    } else if (t instanceof BinaryType) {
      byte[] bytes = src.getBinary(ordinal);
      ((BytesColumnVector) v).setRef(r, bytes, 0, bytes.length);
    } else if (t instanceof TimestampType) {
      long micros = src.getLong(ordinal);
      TimestampColumnVector ts = (TimestampColumnVector) v;
      ts.time[r] = Math.floorDiv(micros, 1000L);
      ts.nanos[r] = (int) Math.floorMod(micros, 1_000_000L) * 1000;
    } else if (t instanceof TimestampNTZType) {
      long micros = src.getLong(ordinal);
      TimestampColumnVector ts = (TimestampColumnVector) v;
      ts.time[r] = localToEpochMillis(Math.floorDiv(micros, 1000L));
      ts.nanos[r] = (int) Math.floorMod(micros, 1_000_000L) * 1000;
    } else if (t instanceof ArrayType) {
      ListColumnVector list = (ListColumnVector) v;
      ArrayData a = src.getArray(ordinal);
      int n = a.numElements();
      int offset = list.childCount;
      list.offsets[r] = offset;
      list.lengths[r] = n;
      list.childCount += n;
      list.child.ensureSize(list.childCount, true);
      DataType et = ((ArrayType) t).elementType();
      for (int k = 0; k < n; k++) setValue(list.child, offset + k, a, k, et);
    } else if (t instanceof MapType) {
      MapColumnVector map = (MapColumnVector) v;
      MapData m = src.getMap(ordinal);
      int n = m.numElements();
      int offset = map.childCount;
      map.offsets[r] = offset;
      map.lengths[r] = n;
      map.childCount += n;
      map.keys.ensureSize(map.childCount, true);
      map.values.ensureSize(map.childCount, true);
      MapType mt = (MapType) t;
      ArrayData keys = m.keyArray();
      ArrayData values = m.valueArray();
      for (int k = 0; k < n; k++) {
        setValue(map.keys, offset + k, keys, k, mt.keyType());
        setValue(map.values, offset + k, values, k, mt.valueType());
      }
    } else if (t instanceof StructType) {
      StructColumnVector struct = (StructColumnVector) v;
      StructField[] fields = ((StructType) t).fields();
      InternalRow nested = src.getStruct(ordinal, fields.length);
      for (int j = 0; j < fields.length; j++) setValue(struct.fields[j], r, nested, j, fields[j].dataType());
    } else {
      throw new IllegalArgumentException("Type " + t.simpleString() + " cannot be written to ORC");
    }
  }

  /**
   * The epoch millis whose wall clock in the JVM zone (shifted by the zone's offset, as Paimon's ORC
   * reader shifts it back) is {@code wallMillis}; the identity in UTC.
   */
  private long localToEpochMillis(long wallMillis) {
    long guess = wallMillis - zone.getOffset(wallMillis);
    return wallMillis - zone.getOffset(guess);
  }

  /** Inverse of the writer's shift: the wall clock (as UTC epoch millis) of epoch millis read back. */
  public static long epochToLocalMillis(long epochMillis, TimeZone zone) {
    return epochMillis + zone.getOffset(epochMillis);
  }

  @Override
  public long estimatedSize() {
    return rawBytes / RowSizeEstimator.COMPRESSION_GUESS;
  }

  @Override
  public void close() throws IOException {
    flush();
    writer.close();
  }

  @Override
  public void abort() {
    try {
      writer.close();
    } catch (IOException | RuntimeException ignore) {
      // best effort
    }
    try {
      path.getFileSystem(conf).delete(path, false);
    } catch (IOException ignore) {
      // an orphan at worst
    }
  }
}
