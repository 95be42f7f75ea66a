package io.lagoon.core.mergetree;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.read.DataFileReader;
import io.lagoon.core.read.RowsOfBatches;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.SparkTypes;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads the records of a primary-key table's data files row by row: the key columns,
 * {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND} and the value columns a merge needs. Columns are
 * matched by name, so files written by Lagoon and by Paimon (0.9 and 1.x, Parquet and ORC) read
 * alike. No filter is pushed into the file: a value filter below the merge would drop the record
 * that shadows an older one.
 */
public final class KeyValueFileReader implements KeyValueSource, KeyValueBatchSource {
  private final String tableName;
  private final DataFileReader reader;
  private final int keyArity;
  private final DataType[] keyTypes;
  /** Position in the table's value row of each value column read, in read order. */
  private final int[] valuePositions;
  private final DataType[] valueTypes;
  private final int valueArity;
  /** Whether files open as records ({@link #open}); else as batches ({@link #openBatches}). */
  private final boolean records;
  /** A reader of the same files without value columns, if one was built; else null. */
  private KeyValueFileReader keysOnly;

  private KeyValueFileReader(String tableName, DataFileReader reader, boolean records, int keyArity, DataType[] keyTypes,
                             int[] valuePositions, DataType[] valueTypes, int valueArity) {
    this.tableName = tableName;
    this.reader = reader;
    this.records = records;
    this.keyArity = keyArity;
    this.keyTypes = keyTypes;
    this.valuePositions = valuePositions;
    this.valueTypes = valueTypes;
    this.valueArity = valueArity;
  }

  /**
   * Builds a reader on the driver (Spark's Parquet reader needs the session).
   *
   * @param valueColumns the table columns to read; null reads them all. The others are null in
   *     every value row.
   */
  public static KeyValueFileReader build(SparkSession spark, FileStoreTable table, Set<String> valueColumns) {
    return build(spark, table, valueColumns, Set.of("parquet", "orc"));
  }

  /**
   * A reader for compaction: all columns, plus, for tables in deletion-vector mode, a reader of
   * keys only ({@link #keysOnly()}) for looking keys up in the levels above.
   */
  public static KeyValueFileReader buildForCompaction(SparkSession spark, FileStoreTable table) {
    KeyValueFileReader full = build(spark, table, null);
    if (table.options().deletionVectors()) full.keysOnly = build(spark, table, Set.of());
    return full;
  }

  @Override
  public KeyValueSource keysOnly() {
    return keysOnly == null ? this : keysOnly;
  }

  /**
   * A reader of the given file formats only ({@code parquet}, {@code orc}): each format's reader
   * broadcasts the Hadoop configuration, once per query.
   */
  public static KeyValueFileReader build(SparkSession spark, FileStoreTable table, Set<String> valueColumns,
                                         Set<String> formats) {
    return build(spark, table, valueColumns, formats, false);
  }

  /**
   * A reader whose files open as column batches ({@link #openBatches}) instead of records; only
   * when {@link #supportsBatches} says the columns can be read that way.
   */
  public static KeyValueFileReader buildColumnar(SparkSession spark, FileStoreTable table, Set<String> valueColumns,
                                                 Set<String> formats) {
    return build(spark, table, valueColumns, formats, true);
  }

  /** Whether the key, system and given value columns can be read as column batches. */
  public static boolean supportsBatches(SparkSession spark, FileStoreTable table, Set<String> valueColumns) {
    return DataFileReader.supportsBatch(spark, readSchema(table, valueColumns));
  }

  /** The columns read: keys, {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND}, then the value columns in table order. */
  private static StructType readSchema(FileStoreTable table, Set<String> valueColumns) {
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    StructType dataSchema = SparkTypes.toSpark(layout.physicalFields());
    List<StructField> required = new ArrayList<>();
    for (int i = 0; i < layout.keyArity() + 2; i++) required.add(dataSchema.fields()[i]);
    List<DataField> values = layout.valueFields();
    for (int i = 0; i < values.size(); i++) {
      if (valueColumns == null || valueColumns.contains(values.get(i).name())) {
        required.add(dataSchema.fields()[layout.valueStart() + i]);
      }
    }
    return new StructType(required.toArray(new StructField[0]));
  }

  private static KeyValueFileReader build(SparkSession spark, FileStoreTable table, Set<String> valueColumns,
                                          Set<String> formats, boolean batches) {
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    List<DataField> physical = layout.physicalFields();
    StructType dataSchema = SparkTypes.toSpark(physical);
    List<StructField> required = new ArrayList<>();
    int k = layout.keyArity();
    DataType[] keyTypes = new DataType[k];
    for (int i = 0; i < k + 2; i++) {
      required.add(dataSchema.fields()[i]);
      if (i < k) keyTypes[i] = dataSchema.fields()[i].dataType();
    }
    List<DataField> values = layout.valueFields();
    List<Integer> positions = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      if (valueColumns == null || valueColumns.contains(values.get(i).name())) {
        positions.add(i);
        required.add(dataSchema.fields()[layout.valueStart() + i]);
      }
    }
    int[] pos = positions.stream().mapToInt(Integer::intValue).toArray();
    DataType[] types = new DataType[pos.length];
    for (int i = 0; i < pos.length; i++) types[i] = required.get(k + 2 + i).dataType();
    StructType requiredSchema = new StructType(required.toArray(new StructField[0]));
    // Records are read out of column batches whenever the columns allow it: strings then come from
    // each column chunk's dictionary decoded once (DataFileReader), not copied out on every read.
    boolean readBatches = batches || (!formats.contains("avro") && DataFileReader.supportsBatch(spark, requiredSchema));
    // A copy of the configuration: Spark's Parquet reader stores its read schema in the one it
    // is given, which other readers of the same scan share.
    DataFileReader reader = DataFileReader.build(spark, dataSchema, requiredSchema, List.of(),
        new org.apache.hadoop.conf.Configuration(table.io().hadoopConf()), readBatches, formats);
    // Files of any schema the table has had may meet this reader (it is built before its files are known).
    try {
      reader.withOlderSchemas(table.schemas().listIds(), table.schema().id(), physical,
          id -> new KeyValueLayout(table.schema(id)).physicalFields(), "primary-key table " + table.fullName());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("Cannot read the schemas of " + table.fullName() + ": " + e.getMessage(), e);
    }
    return new KeyValueFileReader(table.fullName(), reader, !batches, k, keyTypes, pos, types, values.size());
  }

  /** Table columns this reader fills, by position in the value row. */
  public int[] valuePositions() {
    return valuePositions.clone();
  }

  @Override
  public int keyArity() {
    return keyArity;
  }

  /**
   * Where the value column at {@code valuePosition} (its table position) sits in a row or batch
   * this reader returns; -1 when it is not read.
   */
  public int columnOf(int valuePosition) {
    for (int i = 0; i < valuePositions.length; i++) if (valuePositions[i] == valuePosition) return keyArity + 2 + i;
    return -1;
  }

  /** A file's rows as column batches (a reader built by {@link #buildColumnar}); batches are reused. */
  @Override
  public Iterator<ColumnarBatch> openBatches(Path bucketDir, DataFileMeta file) {
    if (records) throw new IllegalStateException("This reader returns records, not batches");
    Path path = new Path(bucketDir, file.fileName);
    scala.collection.Iterator<InternalRow> in;
    try {
      in = reader.open(path, 0, file.fileSize, file.fileSize, null, n -> { }, file.schemaId);
    } catch (RuntimeException e) {
      throw fail(path, e);
    }
    return new Batches(path, in);
  }

  /** Spark's batch iterator (typed as rows) seen as batches; closing it closes the file. */
  private final class Batches implements Iterator<ColumnarBatch>, Closeable {
    private final Path path;
    private final scala.collection.Iterator<InternalRow> in;

    Batches(Path path, scala.collection.Iterator<InternalRow> in) {
      this.path = path;
      this.in = in;
    }

    @Override public boolean hasNext() { return in.hasNext(); }
    @Override public ColumnarBatch next() { return (ColumnarBatch) (Object) in.next(); }

    @Override
    public void close() throws IOException {
      if (in instanceof Closeable) ((Closeable) in).close();
    }
  }

  /** The error for a file that cannot be read, naming it and the table. */
  @Override
  public IllegalStateException readFailure(Path path, RuntimeException e) {
    return fail(path, e);
  }

  @Override
  public CloseableIterator<KeyValue> open(Path bucketDir, DataFileMeta file) {
    if (!records) throw new IllegalStateException("This reader returns batches, not records");
    Path path = new Path(bucketDir, file.fileName);
    try {
      scala.collection.Iterator<InternalRow> in = reader.open(path, 0, file.fileSize, file.fileSize, null, n -> { },
          file.schemaId);
      return new Records(path, reader.batch() ? new RowsOfBatches(in) : in);
    } catch (RuntimeException e) {
      throw fail(path, e);
    }
  }

  private IllegalStateException fail(Path path, RuntimeException e) {
    return new IllegalStateException("Cannot read data file " + path + " of primary-key table " + tableName
        + ": " + e.getMessage(), e);
  }

  /**
   * One file's rows as key-value records; the record holder and its key and value views are reused
   * between records.
   */
  private final class Records implements CloseableIterator<KeyValue> {
    private final Path path;
    private final scala.collection.Iterator<InternalRow> rows;
    private final ProjectedRow key;
    private final ProjectedRow value;
    private final KeyValue record;

    Records(Path path, scala.collection.Iterator<InternalRow> rows) {
      this.path = path;
      this.rows = rows;
      int[] keySources = new int[keyArity];
      for (int i = 0; i < keyArity; i++) keySources[i] = i;
      this.key = new ProjectedRow(keySources, keyTypes);
      int[] valueSources = new int[valueArity];
      java.util.Arrays.fill(valueSources, -1);
      DataType[] allValueTypes = new DataType[valueArity];
      for (int i = 0; i < valuePositions.length; i++) {
        valueSources[valuePositions[i]] = keyArity + 2 + i;
        allValueTypes[valuePositions[i]] = valueTypes[i];
      }
      for (int i = 0; i < valueArity; i++) if (allValueTypes[i] == null) allValueTypes[i] = org.apache.spark.sql.types.DataTypes.NullType;
      this.value = new ProjectedRow(valueSources, allValueTypes);
      this.record = new KeyValue(key, 0, KeyValue.INSERT, value);
    }

    @Override
    public boolean hasNext() {
      try {
        return rows.hasNext();
      } catch (RuntimeException e) {
        throw fail(path, e);
      }
    }

    @Override
    public KeyValue next() {
      if (!hasNext()) throw new NoSuchElementException();
      try {
        // Views into the file's row: nothing is boxed or copied until a merge keeps a record.
        InternalRow r = rows.next();
        key.replace(r);
        value.replace(r);
        return record.reuse(key, r.getLong(keyArity), r.getByte(keyArity + 1), value);
      } catch (RuntimeException e) {
        throw fail(path, e);
      }
    }

    @Override
    public void close() {
      if (rows instanceof Closeable) {
        try {
          ((Closeable) rows).close();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException("Cannot close data file " + path, e);
        }
      }
    }
  }
}
