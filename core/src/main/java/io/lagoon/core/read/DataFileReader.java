package io.lagoon.core.read;

import io.lagoon.core.deletionvectors.DeletionVector;
import io.lagoon.core.fs.SerializableConfiguration;
import java.util.function.LongConsumer;
import org.apache.spark.sql.types.Metadata;
import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.lagoon.core.fs.LeanConfiguration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.paths.SparkPath;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.execution.datasources.FileFormat;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.sources.Filter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import scala.Function1;
import scala.collection.Iterator;
import scala.collection.JavaConverters;

/**
 * Reads data files: Parquet with Spark's own Parquet reader (vectorized batches, row-group
 * filtering with the pushed filters, column pruning), ORC with {@link OrcDataReader}, which reads
 * Paimon's ORC layout (Spark's ORC reader cannot). Built on the driver (it needs the session), then
 * shipped to executors where {@link #open} reads one file.
 */
public final class DataFileReader implements Serializable {
  private final Function1<PartitionedFile, Iterator<InternalRow>> parquet;
  private final OrcDataReader orc;
  /** Avro files (rows only): Paimon writes the rows waiting in {@code bucket-postpone} as Avro. */
  private AvroDataReader avro;
  private final boolean batch;
  /** Parquet reader for files that store a TIMESTAMP_NTZ column as INT96 (null: no such column). */
  private Function1<PartitionedFile, Iterator<InternalRow>> parquetInt96;
  /** Parquet without the row-index column, for whole-file reads that count positions; null when filters are pushed. */
  private Function1<PartitionedFile, Iterator<InternalRow>> parquetCounted;
  /** Whether {@link #parquetCounted} reads every whole file (no filters to push), not only those with a row selection. */
  private boolean countsAlways;
  /** Builds {@link #parquetCounted} when only files with a row selection use it (driver side). */
  private transient java.util.function.Supplier<Function1<PartitionedFile, Iterator<InternalRow>>> countedReader;
  private List<String> ntzColumns = List.of();
  /**
   * The column Spark's Parquet reader fills with each row's position in its file (and the ORC
   * reader too), read when deletion vectors may apply.
   */
  public static final String ROW_POSITION = ParquetFileFormat.ROW_INDEX_TEMPORARY_COLUMN_NAME();
  private boolean rowPositions;
  private boolean withFile;
  private boolean withPosition;
  private StructType output;
  /** Broadcast once per reader: a field would travel with every task. */
  private final Broadcast<SerializableConfiguration> conf;
  /** Readers of the files written under older schemas whose columns differ, by schema id ({@link #withOlderSchemas}). */
  private Map<Long, Older> older = Map.of();
  /** The columns this reader appends after the requested ones (file path, row position). */
  private DataType[] extras = new DataType[0];
  /** The configuration to read Parquet footers with, to skip row groups ({@link #skipRowGroups}); null: off. */
  private Broadcast<SerializableConfiguration> footerConf;
  /** Builds a reader like this one over other columns and filters (driver side only). */
  private transient Rebuild rebuild;
  private transient List<Filter> filters = List.of();

  private interface Rebuild {
    DataFileReader build(StructType dataSchema, StructType required, List<Filter> filters);
  }

  /** The physical columns of a table schema, by id. */
  public interface SchemaColumns {
    List<io.lagoon.core.types.DataField> of(long schemaId) throws java.io.IOException;
  }

  /** A reader of one older schema's files and what turns its output into the requested columns. */
  private static final class Older implements Serializable {
    final DataFileReader reader;
    final EvolvedColumns columns;

    Older(DataFileReader reader, EvolvedColumns columns) {
      this.reader = reader;
      this.columns = columns;
    }
  }

  private DataFileReader(Function1<PartitionedFile, Iterator<InternalRow>> parquet,
                         OrcDataReader orc, boolean batch, Broadcast<SerializableConfiguration> conf) {
    this.parquet = parquet;
    this.orc = orc;
    this.batch = batch;
    this.conf = conf;
  }

  /**
   * Whether the required columns can be read as columnar batches from every format (the ORC reader
   * always returns batches when asked; Spark's Parquet reader decides for Parquet).
   */
  public static boolean supportsBatch(SparkSession spark, StructType required) {
    return new ParquetFileFormat().supportBatch(spark, required);
  }

  /**
   * Builds readers for the formats the scan will meet ({@code parquet}, {@code orc}; see
   * {@link #formatOf}); each one broadcasts the Hadoop configuration, so formats without files are
   * skipped, and opening a file of another format fails.
   */
  public static DataFileReader build(SparkSession spark, StructType dataSchema, StructType required,
                                     List<Filter> filters, Configuration conf, boolean batch,
                                     java.util.Set<String> formats) {
    return build(spark, dataSchema, required, filters, conf, batch, formats, false);
  }

  /**
   * @param rowPositions whether the reader also reads each row's position in its file, so
   *     {@link #open(Path, long, long, long, DeletionVector, LongConsumer)} can apply deletion vectors
   */
  public static DataFileReader build(SparkSession spark, StructType dataSchema, StructType required,
                                     List<Filter> filters, Configuration conf, boolean batch,
                                     java.util.Set<String> formats, boolean rowPositions) {
    return build(spark, dataSchema, required, filters, conf, batch, formats, rowPositions, false, false);
  }

  /**
   * @param withFile whether every row also carries its file's path (a STRING after the columns)
   * @param withPosition whether every row also carries its position (a BIGINT, last); needs
   *     {@code rowPositions}
   */
  public static DataFileReader build(SparkSession spark, StructType dataSchema, StructType required,
                                     List<Filter> filters, Configuration conf, boolean batch,
                                     java.util.Set<String> formats, boolean rowPositions, boolean withFile,
                                     boolean withPosition) {
    return build(spark, dataSchema, required, filters, conf, batch, formats, rowPositions, withFile, withPosition,
        false);
  }

  /**
   * @param wholeFilesOnly every Parquet file will be opened whole ({@code start} 0, its full
   *     length): with row positions and no filter, only the reader that counts positions is built,
   *     saving a reader (and its broadcast configuration) per query
   */
  public static DataFileReader build(SparkSession spark, StructType dataSchema, StructType required,
                                     List<Filter> filters, Configuration conf, boolean batch,
                                     java.util.Set<String> formats, boolean rowPositions, boolean withFile,
                                     boolean withPosition, boolean wholeFilesOnly) {
    if (withPosition && !rowPositions) throw new IllegalArgumentException("Row positions are needed to return them");
    Configuration given = conf;
    List<Filter> givenFilters = filters;
    // Spark's readers broadcast the configuration they get (and set entries on it): they get a cheap
    // copy each (ParquetReaderCache), and so do the other formats' readers here.
    conf = new LeanConfiguration(conf);
    StructType output = required;
    if (rowPositions) required = required.add(new StructField(ROW_POSITION, DataTypes.LongType, true, Metadata.empty()));
    Map<String, String> opts = new HashMap<>();
    opts.put(FileFormat.OPTION_RETURNING_BATCH(), Boolean.toString(batch));
    // Paimon files hold proleptic Gregorian dates and timestamps: never rebase on read.
    opts.put("datetimeRebaseMode", "CORRECTED");
    opts.put("int96RebaseMode", "CORRECTED");
    scala.collection.immutable.Map<String, String> options = toScala(opts);
    filters = MillisSafeFilters.pushable(filters);
    scala.collection.Seq<Filter> pushed = JavaConverters.asScalaBuffer(filters).toSeq();
    boolean parquet = formats.contains("parquet");
    boolean countedOnly = wholeFilesOnly && rowPositions && filters.isEmpty();
    Function1<PartitionedFile, Iterator<InternalRow>> pq = parquet && !countedOnly
        ? ParquetReaderCache.reader(spark, dataSchema, required, pushed, options, conf) : null;
    // Paimon stores TIMESTAMP(7..9) as INT96, which Spark's Parquet reader refuses as TIMESTAMP_NTZ.
    // Such files are read with those columns declared TIMESTAMP: an INT96 value is the wall clock as
    // UTC, so its microseconds are the TIMESTAMP_NTZ value (the types differ only in name). This
    // holds inside arrays, maps and structs too, where values keep their position.
    List<String> ntz = new java.util.ArrayList<>();
    if (parquet) for (StructField f : required.fields()) if (containsNtz(f.dataType())) ntz.add(f.name());
    boolean orc = formats.contains("orc");
    boolean avro = formats.contains("avro");
    if (avro && batch) {
      throw new IllegalArgumentException("Avro data files are read row by row: build the reader for rows");
    }
    Broadcast<SerializableConfiguration> shared = orc || avro || !ntz.isEmpty()
        ? ConfigurationBroadcasts.of(spark.sparkContext(), conf)
        : null;
    DataFileReader reader = new DataFileReader(pq, orc ? new OrcDataReader(required, shared, batch) : null, batch, shared);
    if (!ntz.isEmpty()) {
      List<Filter> others = new java.util.ArrayList<>();
      for (Filter f : filters) if (!refersTo(f, ntz)) others.add(f);
      reader.parquetInt96 = ParquetReaderCache.reader(spark, ntzAsTimestamp(dataSchema), ntzAsTimestamp(required),
          JavaConverters.asScalaBuffer(others).toSeq(), options, conf);
      reader.ntzColumns = ntz;
    }
    if (rowPositions && parquet && filters.isEmpty()) {
      // Without filters the reader returns every row of a file in order, so a whole-file read can
      // count positions instead of having Spark generate its row-index column (see open).
      reader.parquetCounted = ParquetReaderCache.reader(spark, dataSchema, output, pushed, options, conf);
      reader.countsAlways = true;
    } else if (rowPositions && parquet) {
      Configuration readConf = conf;
      StructType dataColumns = dataSchema;
      StructType outputColumns = output;
      reader.countedReader = () -> ParquetReaderCache.reader(spark, dataColumns, outputColumns,
          JavaConverters.asScalaBuffer(new java.util.ArrayList<Filter>()).toSeq(), options, readConf);
    }
    if (avro) reader.avro = new AvroDataReader(required, shared);
    reader.output = output;
    reader.rowPositions = rowPositions;
    reader.withFile = withFile;
    reader.withPosition = withPosition;
    List<DataType> extras = new java.util.ArrayList<>();
    if (withFile) extras.add(DataTypes.StringType);
    if (withPosition) extras.add(DataTypes.LongType);
    reader.extras = extras.toArray(new DataType[0]);
    reader.filters = givenFilters;
    reader.rebuild = (ds, rq, fl) -> build(spark, ds, rq, fl, given, batch, formats, rowPositions, withFile, withPosition,
        wholeFilesOnly);
    return reader;
  }

  /**
   * This reader, able to read files written under older schemas too: for each given schema whose
   * files hold the requested columns differently (renamed, retyped, added since; matched by field
   * id, see {@link OlderSchemaColumns}), a reader of the file's own columns whose output is turned
   * into the requested ones. Files are then opened with their schema id. Driver side, once.
   *
   * @param currentId the schema this reader was built with
   * @param current its physical columns (the data schema's, with field ids)
   * @param describe the table, for errors
   */
  public DataFileReader withOlderSchemas(java.util.Collection<Long> schemaIds, long currentId,
                                         List<io.lagoon.core.types.DataField> current, SchemaColumns columns,
                                         String describe) throws java.io.IOException {
    if (rebuild == null) throw new IllegalStateException("Older schemas are added where the reader is built");
    Map<Long, Older> out = new HashMap<>(older);
    for (long id : new java.util.TreeSet<>(schemaIds)) {
      if (id == currentId || out.containsKey(id)) continue;
      OlderSchemaColumns c = OlderSchemaColumns.of(output, current, columns.of(id), describe + " (data files of schema " + id + ")");
      if (c == null) continue;
      out.put(id, new Older(rebuild.build(c.fileSchema, c.fileRequired, c.pushable(filters)), c.columns));
    }
    older = out;
    return this;
  }

  /** Whether a filter reads one of the columns or a field nested in one ({@code col.field}). */
  private static boolean refersTo(Filter f, List<String> columns) {
    for (String ref : f.references()) {
      for (String c : columns) if (ref.equals(c) || ref.startsWith(c + ".")) return true;
    }
    return false;
  }

  private static boolean containsNtz(DataType t) {
    if (t instanceof TimestampNTZType) return true;
    if (t instanceof ArrayType) return containsNtz(((ArrayType) t).elementType());
    if (t instanceof MapType) return containsNtz(((MapType) t).keyType()) || containsNtz(((MapType) t).valueType());
    if (t instanceof StructType) {
      for (StructField f : ((StructType) t).fields()) if (containsNtz(f.dataType())) return true;
    }
    return false;
  }

  private static StructType ntzAsTimestamp(StructType schema) {
    return (StructType) ntzAsTimestamp((DataType) schema);
  }

  private static DataType ntzAsTimestamp(DataType t) {
    if (t instanceof TimestampNTZType) return DataTypes.TimestampType;
    if (t instanceof ArrayType) {
      ArrayType a = (ArrayType) t;
      return new ArrayType(ntzAsTimestamp(a.elementType()), a.containsNull());
    }
    if (t instanceof MapType) {
      MapType m = (MapType) t;
      return new MapType(ntzAsTimestamp(m.keyType()), ntzAsTimestamp(m.valueType()), m.valueContainsNull());
    }
    if (t instanceof StructType) {
      StructField[] out = ((StructType) t).fields().clone();
      for (int i = 0; i < out.length; i++) {
        out[i] = new StructField(out[i].name(), ntzAsTimestamp(out[i].dataType()), out[i].nullable(), out[i].metadata());
      }
      return new StructType(out);
    }
    return t;
  }

  /**
   * Whether a Parquet file stores an INT96 value in one of the columns holding TIMESTAMP_NTZ (its
   * footer says); INT96 is only ever a timestamp, and reading an LTZ one this way changes nothing.
   */
  private boolean hasInt96Ntz(Path path) {
    try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(path, conf.value().get()))) {
      MessageType schema = r.getFooter().getFileMetaData().getSchema();
      for (String name : ntzColumns) {
        if (schema.containsField(name) && hasInt96(schema.getType(name))) return true;
      }
      return false;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("Cannot read the footer of " + path + ": " + e.getMessage(), e);
    }
  }

  private static boolean hasInt96(Type t) {
    if (t.isPrimitive()) return t.asPrimitiveType().getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT96;
    for (Type child : t.asGroupType().getFields()) if (hasInt96(child)) return true;
    return false;
  }

  @SuppressWarnings("unchecked")
  private static scala.collection.immutable.Map<String, String> toScala(Map<String, String> m) {
    scala.collection.immutable.Map<String, String> out = scala.collection.immutable.Map$.MODULE$.empty();
    for (Map.Entry<String, String> e : m.entrySet()) out = out.$plus(new scala.Tuple2<>(e.getKey(), e.getValue()));
    return out;
  }

  public boolean batch() {
    return batch;
  }

  /**
   * Opens a byte range of one file (Spark's readers take the row groups or stripes that start in it). With {@link #batch()} the iterator's elements are
   * {@link org.apache.spark.sql.vectorized.ColumnarBatch}es, otherwise rows.
   */
  public Iterator<InternalRow> open(Path path, long start, long length, long fileSize) {
    return open(path, start, length, fileSize, null, n -> { });
  }

  /**
   * Opens a byte range of a file, leaving out the rows {@code deleted} marks (null: none); a
   * reader built with row positions only. {@code dropped} hears how many rows the vector removed.
   */
  public Iterator<InternalRow> open(Path path, long start, long length, long fileSize, DeletionVector deleted,
                                    LongConsumer dropped) {
    return open(path, start, length, fileSize, deleted, dropped, false);
  }

  /**
   * @param selection whether {@code deleted} leaves out the rows outside a file's row selection
   *     (its indexes' answer): such a whole file is read without pushed filters, counting positions
   *     ({@link #countSelectedPositions}); the selection already narrows it further than row-group
   *     stats could, and every filter is checked again on the rows
   */
  private Iterator<InternalRow> open(Path path, long start, long length, long fileSize, DeletionVector deleted,
                                     LongConsumer dropped, boolean selection) {
    if (!rowPositions && deleted != null) throw new IllegalStateException("This reader was built without row positions");
    if (!rowPositions && !withFile) return openRaw(path, start, length, fileSize);
    if (parquetCounted != null && (countsAlways || selection) && start == 0 && length >= fileSize
        && path.getName().endsWith(".parquet")
        && !(parquetInt96 != null && hasInt96Ntz(path))) {
      @SuppressWarnings({"unchecked", "rawtypes"})
      Iterator<InternalRow> counted = (Iterator) new DeletionVectorFilter(parquetBatches(parquetCounted.apply(
          partitioned(path, start, length, fileSize))), output, true, true, deleted, batch, dropped,
          withFile ? path.toString() : null, withPosition);
      return counted;
    }
    @SuppressWarnings({"unchecked", "rawtypes"})
    Iterator<InternalRow> filtered = (Iterator) new DeletionVectorFilter(openRaw(path, start, length, fileSize), output,
        rowPositions, deleted, batch, dropped, withFile ? path.toString() : null, withPosition);
    return filtered;
  }

  /**
   * Lets whole files with a row selection count their row positions though the reader pushes
   * filters (driver side): Spark's row-index column, which a filtered read needs, boxes every
   * position it generates, a sixth of such a scan's time.
   */
  public DataFileReader countSelectedPositions() {
    if (parquetCounted == null && countedReader != null) parquetCounted = countedReader.get();
    for (Older o : older.values()) o.reader.countSelectedPositions();
    return this;
  }

  /**
   * Opens a byte range of a file written under the given schema, leaving out the rows outside its
   * row selection ({@code outside}; see {@link #countSelectedPositions}).
   */
  public Iterator<InternalRow> openSelected(Path path, long start, long length, long fileSize, DeletionVector outside,
                                            long schemaId) {
    Older o = older.get(schemaId);
    if (o == null) return open(path, start, length, fileSize, outside, n -> { }, true);
    return o.columns.adapt(o.reader.open(path, start, length, fileSize, outside, n -> { }, true), batch, extras);
  }

  /**
   * Lets {@link #rowGroupsToRead} read Parquet footers (a broadcast of the configuration); for scans
   * whose files have row selections. Driver side.
   */
  public DataFileReader skipRowGroups(SparkSession spark, Configuration conf) {
    footerConf = this.conf != null ? this.conf
        : ConfigurationBroadcasts.of(spark.sparkContext(), conf);
    return this;
  }

  /**
   * The row groups of a Parquet range to read when {@code deleted} leaves out every row of some of
   * them ({@link RowGroupRanges}): {@code {start, length, rows}} each; null to read the range as it is.
   */
  public RowGroupRanges.Plan rowGroupsToRead(Path path, long start, long length, DeletionVector deleted) {
    if (footerConf == null || deleted == null || !path.getName().endsWith(".parquet")) return null;
    return RowGroupRanges.kept(footerConf.value().get(), path, start, length, deleted);
  }

  /**
   * Opens a byte range of a file written under the given schema (see {@link #withOlderSchemas}),
   * leaving out the rows {@code deleted} marks (null: none).
   */
  public Iterator<InternalRow> open(Path path, long start, long length, long fileSize, DeletionVector deleted,
                                    LongConsumer dropped, long schemaId) {
    Older o = older.get(schemaId);
    if (o == null) return open(path, start, length, fileSize, deleted, dropped);
    return o.columns.adapt(o.reader.open(path, start, length, fileSize, deleted, dropped), batch, extras);
  }

  private static PartitionedFile partitioned(Path path, long start, long length, long fileSize) {
    return new PartitionedFile(new GenericInternalRow(0), SparkPath.fromPath(path), start, length,
        new String[0], 0L, fileSize, scala.collection.immutable.Map$.MODULE$.empty());
  }

  private Iterator<InternalRow> openRaw(Path path, long start, long length, long fileSize) {
    PartitionedFile file = partitioned(path, start, length, fileSize);
    String name = path.getName();
    if (name.endsWith(".orc") && orc != null) return orc.open(path, start, length);
    if (name.endsWith(".avro") && avro != null) return avro.open(path, start);
    if (name.endsWith(".parquet") && (parquet != null || parquetCounted != null)) {
      if (parquetInt96 != null && hasInt96Ntz(path)) return parquetBatches(parquetInt96.apply(file));
      if (parquet == null) {
        throw new IllegalStateException("Data file " + path + " is read from byte " + start + " for " + length
            + " bytes, but this reader was built for whole files only");
      }
      return parquetBatches(parquet.apply(file));
    }
    if (name.endsWith(".orc") || name.endsWith(".parquet") || name.endsWith(".avro")) {
      throw new IllegalStateException("Data file " + path + " was not planned for this reader (built for other formats)");
    }
    throw new IllegalArgumentException("Unsupported data file format: " + path
        + " (Lagoon reads .parquet, .orc and, row by row, .avro files)");
  }

  /** Spark's Parquet batches, their strings decoded once per dictionary entry (see {@link DictionaryStringVector}). */
  private Iterator<InternalRow> parquetBatches(Iterator<InternalRow> read) {
    return batch ? DecodedDictionaryStrings.wrap(read) : read;
  }

  /** The format of a data file, from its extension ({@code parquet}, {@code orc}, {@code avro}), else null. */
  public static String formatOf(String fileName) {
    if (fileName.endsWith(".parquet")) return "parquet";
    if (fileName.endsWith(".orc")) return "orc";
    if (fileName.endsWith(".avro")) return "avro";
    return null;
  }
}
