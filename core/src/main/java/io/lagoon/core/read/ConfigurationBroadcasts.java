package io.lagoon.core.read;

import io.lagoon.core.fs.LeanConfiguration;
import io.lagoon.core.fs.SerializableConfiguration;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;

/**
 * Broadcasts of a Hadoop configuration, kept on the driver and handed out again for the same
 * entries. A reader that may meet ORC or Avro files (a compaction's reader may meet any format)
 * ships the table's configuration, a thousand entries; broadcasting it anew for every statement
 * cost a compaction about as much driver time as planning it. A broadcast is never changed once
 * made, so one per Spark context and set of entries serves every reader built from them.
 */
final class ConfigurationBroadcasts {
  /** A few tables' configurations; each broadcast holds some 100 KB. */
  private static final ContextCache<Broadcast<SerializableConfiguration>> CACHE = new ContextCache<>(16);

  private ConfigurationBroadcasts() {}

  /** A broadcast of {@code conf}'s entries (a copy: later changes to {@code conf} are not seen). */
  static Broadcast<SerializableConfiguration> of(SparkContext context, Configuration conf) {
    return CACHE.get(context, new Object[] {ContextCache.entries(conf)}, () -> JavaSparkContext.fromSparkContext(context)
        .broadcast(new SerializableConfiguration(new LeanConfiguration(conf))));
  }

  /** How many broadcasts are kept (for tests). */
  static int size() {
    return CACHE.size();
  }
}
