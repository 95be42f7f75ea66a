package io.lagoon.core.read;

import io.lagoon.core.fs.SerializableConfiguration;
import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.paths.SparkPath;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.execution.datasources.FileFormat;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
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
  private final boolean batch;

  private DataFileReader(Function1<PartitionedFile, Iterator<InternalRow>> parquet,
                         OrcDataReader orc, boolean batch) {
    this.parquet = parquet;
    this.orc = orc;
    this.batch = batch;
  }

  /**
   * Whether the required columns can be read as columnar batches from every format (the ORC reader
   * always returns batches when asked; Spark's Parquet reader decides for Parquet).
   */
  public static boolean supportsBatch(SparkSession spark, StructType required) {
    return new ParquetFileFormat().supportBatch(spark, required);
  }

  public static DataFileReader build(SparkSession spark, StructType dataSchema, StructType required,
                                     List<Filter> filters, Configuration conf, boolean batch) {
    Map<String, String> opts = new HashMap<>();
    opts.put(FileFormat.OPTION_RETURNING_BATCH(), Boolean.toString(batch));
    // Paimon files hold proleptic Gregorian dates and timestamps: never rebase on read.
    opts.put("datetimeRebaseMode", "CORRECTED");
    opts.put("int96RebaseMode", "CORRECTED");
    scala.collection.immutable.Map<String, String> options = toScala(opts);
    scala.collection.Seq<Filter> pushed = JavaConverters.asScalaBuffer(filters).toSeq();
    StructType noPartitions = new StructType();
    Function1<PartitionedFile, Iterator<InternalRow>> pq = new ParquetFileFormat()
        .buildReaderWithPartitionValues(spark, dataSchema, noPartitions, required, pushed, options, conf);
    OrcDataReader oc = new OrcDataReader(required, new SerializableConfiguration(conf), batch);
    return new DataFileReader(pq, oc, batch);
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
    PartitionedFile file = new PartitionedFile(new GenericInternalRow(0), SparkPath.fromPath(path), start, length,
        new String[0], 0L, fileSize, scala.collection.immutable.Map$.MODULE$.empty());
    String name = path.getName();
    if (name.endsWith(".orc")) return orc.open(path, start, length);
    if (name.endsWith(".parquet")) return parquet.apply(file);
    throw new IllegalArgumentException("Unsupported data file format: " + path
        + " (Lagoon reads .parquet and .orc files)");
  }
}
