package io.lagoon.core.read;

import io.lagoon.core.fs.LeanConfiguration;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import scala.Function1;
import scala.collection.Iterator;
import scala.collection.JavaConverters;

/**
 * Spark's Parquet reader functions, kept on the driver and handed out again for the same inputs.
 * Building one broadcasts the whole Hadoop configuration (a thousand entries: its size estimated,
 * serialized and stored) and a row-level statement on a primary-key table builds three (its scan's
 * readers and the writers' compaction reader), about a sixth of the driver's CPU in a warm DELETE
 * or UPDATE. A function depends only on what it is built from, all of it in the key: the Spark
 * context (whose broadcast it holds), the schemas, filters and options, the session's SQL settings
 * and every configuration entry; a changed setting or configuration entry builds a new one.
 * Spark writes the read schema into the configuration it is given, so each build gets its own copy
 * and the caller's stays untouched.
 */
final class ParquetReaderCache {
  /** Enough for the readers of a few tables in a few shapes; each holds a broadcast of some 200 KB. */
  private static final int CAPACITY = 32;

  private static final ContextCache<Function1<PartitionedFile, Iterator<InternalRow>>> CACHE =
      new ContextCache<>(CAPACITY);

  private ParquetReaderCache() {}

  static Function1<PartitionedFile, Iterator<InternalRow>> reader(SparkSession spark, StructType dataSchema,
      StructType required, scala.collection.Seq<Filter> filters, scala.collection.immutable.Map<String, String> options,
      Configuration conf) {
    Object[] inputs = {dataSchema, required, JavaConverters.seqAsJavaList(filters), JavaConverters.mapAsJavaMap(options),
        ContextCache.entries(conf), JavaConverters.mapAsJavaMap(spark.sessionState().conf().getAllConfs())};
    return CACHE.get(spark.sparkContext(), inputs, () -> new ParquetFileFormat().buildReaderWithPartitionValues(
        filters.isEmpty() ? withoutFilterPushdown(spark) : spark, dataSchema, new StructType(), required, filters,
        options, new LeanConfiguration(conf)));
  }

  /**
   * The session for a reader without filters: with pushdown on, Spark's function builds Parquet's
   * filter converter for every file it opens even when there is nothing to push, quoting each
   * column name through a regular expression (compaction opens a few dozen files a statement, and
   * the regular expressions' compilation kept the JIT busy into the fifth run). Off, it skips that;
   * nothing else of the reader depends on the setting.
   */
  private static SparkSession withoutFilterPushdown(SparkSession spark) {
    if (!spark.sessionState().conf().parquetFilterPushDown()) return spark;
    SparkSession s = spark.cloneSession();
    s.sessionState().conf().setConfString("spark.sql.parquet.filterPushdown", "false");
    return s;
  }

  /** How many functions are kept (for tests). */
  static int size() {
    return CACHE.size();
  }
}
