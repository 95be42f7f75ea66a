package io.lagoon.core.read;

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
import org.apache.spark.sql.execution.datasources.orc.OrcFileFormat;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import scala.Function1;
import scala.collection.Iterator;
import scala.collection.JavaConverters;

/**
 * Reads data files with Spark's own Parquet and ORC readers: vectorized batches, row-group
 * filtering with the pushed filters, and column pruning. Built on the driver (it needs the
 * session), then shipped to executors where {@link #open} reads one file.
 */
public final class DataFileReader implements Serializable {
  private final Function1<PartitionedFile, Iterator<InternalRow>> parquet;
  private final Function1<PartitionedFile, Iterator<InternalRow>> orc;
  private final boolean batch;

  private DataFileReader(Function1<PartitionedFile, Iterator<InternalRow>> parquet,
                         Function1<PartitionedFile, Iterator<InternalRow>> orc, boolean batch) {
    this.parquet = parquet;
    this.orc = orc;
    this.batch = batch;
  }

  /** Whether Spark can read the required columns as columnar batches from every format. */
  public static boolean supportsBatch(SparkSession spark, StructType required) {
    return new ParquetFileFormat().supportBatch(spark, required) && new OrcFileFormat().supportBatch(spark, required);
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
    Function1<PartitionedFile, Iterator<InternalRow>> oc = new OrcFileFormat()
        .buildReaderWithPartitionValues(spark, dataSchema, noPartitions, required, pushed, options, conf);
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
    if (name.endsWith(".orc")) return orc.apply(file);
    if (name.endsWith(".parquet")) return parquet.apply(file);
    throw new IllegalArgumentException("Unsupported data file format: " + path
        + " (Lagoon reads .parquet and .orc files)");
  }
}
