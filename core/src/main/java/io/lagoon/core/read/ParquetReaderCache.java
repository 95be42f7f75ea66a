package io.lagoon.core.read;

import io.lagoon.core.fs.LeanConfiguration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkContext;
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

  private static final Map<Key, Function1<PartitionedFile, Iterator<InternalRow>>> CACHE =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Function1<PartitionedFile, Iterator<InternalRow>>> e) {
          return size() > CAPACITY;
        }
      };

  private ParquetReaderCache() {}

  static Function1<PartitionedFile, Iterator<InternalRow>> reader(SparkSession spark, StructType dataSchema,
      StructType required, scala.collection.Seq<Filter> filters, scala.collection.immutable.Map<String, String> options,
      Configuration conf) {
    Key key = new Key(spark.sparkContext(), dataSchema, required, JavaConverters.seqAsJavaList(filters),
        JavaConverters.mapAsJavaMap(options), entries(conf),
        JavaConverters.mapAsJavaMap(spark.sessionState().conf().getAllConfs()));
    synchronized (CACHE) {
      Function1<PartitionedFile, Iterator<InternalRow>> f = CACHE.get(key);
      if (f != null && !key.context.isStopped()) return f;
    }
    Function1<PartitionedFile, Iterator<InternalRow>> built = new ParquetFileFormat().buildReaderWithPartitionValues(
        filters.isEmpty() ? withoutFilterPushdown(spark) : spark, dataSchema, new StructType(), required, filters,
        options, new LeanConfiguration(conf));
    synchronized (CACHE) {
      // A stopped context's functions (and the context itself) are not kept alive here.
      CACHE.keySet().removeIf(k -> k.context.isStopped());
      CACHE.put(key, built);
    }
    return built;
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
    synchronized (CACHE) {
      return CACHE.size();
    }
  }

  private static Map<String, String> entries(Configuration conf) {
    Map<String, String> out = new HashMap<>();
    for (Map.Entry<String, String> e : conf) out.put(e.getKey(), e.getValue());
    return out;
  }

  private static final class Key {
    final SparkContext context;
    final Object[] parts;
    final int hash;

    Key(SparkContext context, Object... parts) {
      this.context = context;
      this.parts = parts;
      this.hash = System.identityHashCode(context) * 31 + java.util.Arrays.hashCode(parts);
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Key)) return false;
      Key k = (Key) o;
      return k.context == context && hash == k.hash && java.util.Arrays.equals(parts, k.parts);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
