package io.lagoon.spark.write;

import io.lagoon.core.compaction.PostponedBucketPlan;
import io.lagoon.core.dynamicbucket.AssignerPlan;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.DataFilePaths;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.PaimonType;
import io.lagoon.spark.functions.BucketKeyTypes;
import io.lagoon.spark.functions.PaimonBucketFunction;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.distributions.Distributions;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.Transform;

/**
 * How Spark must distribute the rows of a write into a fixed-bucket table (primary key or append
 * with {@code bucket-key}): clustered by partition and by Paimon's bucket, computed by the
 * catalog's {@code paimon_bucket} function, so each (partition, bucket) is written by exactly one
 * task. A dynamic-bucket table is clustered the same way by the key's bucket assigner, which is
 * the same hash modulo the number of assigners ({@link AssignerPlan}): each (partition,
 * assigner) is assigned and written by exactly one task.
 */
final class BucketDistribution {
  private BucketDistribution() {}

  /** Fixed buckets: their number; dynamic buckets: the number of assigners the write uses. */
  static int groups(FileStoreTable table) {
    int n = table.options().bucket();
    if (n > 0) return n;
    if (n == DataFilePaths.POSTPONE_BUCKET) return postponedGroups(table);
    return AssignerPlan.numAssigners(table.options(), SparkSession.active().sparkContext().defaultParallelism());
  }

  /**
   * A postponed-bucket table's batch write: each partition has its own bucket count, so rows are
   * clustered by a common divisor of the counts ({@link PostponedBucketPlan#writeGroups}); every
   * bucket then falls in one task (partitions with other counts get fewer tasks).
   */
  private static int postponedGroups(FileStoreTable table) {
    try {
      java.util.Optional<io.lagoon.core.snapshot.Snapshot> latest = table.snapshots().latest();
      java.util.Collection<Integer> counts = latest.isEmpty() ? List.of()
          : PostponedBucketPlan.bucketCounts(table.fullName(), LiveFiles.read(table.manifests(), latest.get())).values();
      return PostponedBucketPlan.writeGroups(counts, table.options().postponeDefaultBucketNum());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("Cannot read the bucket counts of " + table.fullName() + ": " + e.getMessage(), e);
    }
  }

  static Distribution of(FileStoreTable table) {
    List<Expression> clustering = new ArrayList<>();
    // A cross-partition table's key may move between partitions: its assigner alone decides.
    if (!AssignerPlan.isCrossPartition(table)) {
      for (String p : table.schema().partitionKeys()) clustering.add(column(p));
    }
    // Unpartitioned: as many tasks as buckets, bucket b in task b (a hash of the bucket number
    // would often put several buckets in one task and leave others idle).
    clustering.add(bucket(table, clustering.isEmpty() ? PaimonBucketFunction.TASK_NAME : PaimonBucketFunction.NAME));
    return Distributions.clustered(clustering.toArray(new Expression[0]));
  }

  /**
   * An unpartitioned table has exactly {@link #groups} groups of rows, so that many tasks; a
   * partitioned one has up to partitions x groups, left to Spark's shuffle settings.
   */
  static int numPartitions(FileStoreTable table) {
    return table.schema().partitionKeys().isEmpty() || AssignerPlan.isCrossPartition(table) ? groups(table) : 0;
  }

  /** {@code paimon_bucket(n, '<key types>', k1, k2, ...)} (or another function of the same arguments) over the bucket-key columns. */
  private static Transform bucket(FileStoreTable table, String function) {
    TableSchema s = table.schema();
    List<String> keys = s.bucketKeys();
    List<PaimonType> types = new ArrayList<>();
    Expression[] args = new Expression[keys.size() + 2];
    args[0] = Expressions.literal(groups(table));
    for (int i = 0; i < keys.size(); i++) {
      types.add(s.field(keys.get(i)).type());
      args[i + 2] = column(keys.get(i));
    }
    args[1] = Expressions.literal(BucketKeyTypes.encode(types));
    return Expressions.apply(function, args);
  }

  /** Column names are parsed as SQL identifiers: quote them so names like {@code event-day} work. */
  static Expression column(String name) {
    return Expressions.column("`" + name.replace("`", "``") + "`");
  }
}
