package io.lagoon.spark.write;

import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.PaimonType;
import io.lagoon.spark.functions.BucketKeyTypes;
import io.lagoon.spark.functions.PaimonBucketFunction;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.distributions.Distributions;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.sources.Filter;

/**
 * A write into a fixed-bucket primary-key table. Spark shuffles rows so that each (partition,
 * bucket) is written by exactly one task, using the catalog's {@code paimon_bucket} function to
 * compute Paimon's bucket, and sorts each task's rows by partition and key, so every bucket of a
 * task gets its rows in key order. The bucket is left out of the sort: Spark would evaluate the
 * hash for both rows of every comparison; the writer routes rows to their buckets instead.
 */
class PkWrite implements Write, RequiresDistributionAndOrdering {
  final FileStoreTable table;
  private final LagoonWriteBuilder.OverwriteMode mode;
  private final Filter[] overwriteFilters;

  /** A MERGE run as an upsert ({@link UpsertWrites}). */
  private final boolean mergeUpsert;

  PkWrite(FileStoreTable table, LagoonWriteBuilder.OverwriteMode mode, Filter[] overwriteFilters) {
    this(table, mode, overwriteFilters, false);
  }

  PkWrite(FileStoreTable table, LagoonWriteBuilder.OverwriteMode mode, Filter[] overwriteFilters, boolean mergeUpsert) {
    this.table = table;
    this.mode = mode;
    this.overwriteFilters = overwriteFilters;
    this.mergeUpsert = mergeUpsert;
  }

  @Override
  public String description() {
    return "LagoonPkWrite " + table.fullName() + (mode == LagoonWriteBuilder.OverwriteMode.NONE ? "" : " overwrite=" + mode)
        + (mergeUpsert ? " (MERGE as upsert)" : "");
  }

  /** What EXPLAIN prints for the write. */
  @Override
  public String toString() {
    return description();
  }

  @Override
  public Distribution requiredDistribution() {
    List<Expression> clustering = new ArrayList<>();
    for (String p : table.schema().partitionKeys()) clustering.add(column(p));
    // Unpartitioned: as many tasks as buckets, bucket b in task b (a hash of the bucket number
    // would often put several buckets in one task and leave others idle).
    clustering.add(bucket(clustering.isEmpty() ? PaimonBucketFunction.TASK_NAME : PaimonBucketFunction.NAME));
    return Distributions.clustered(clustering.toArray(new Expression[0]));
  }

  @Override
  public SortOrder[] requiredOrdering() {
    TableSchema s = table.schema();
    List<SortOrder> out = new ArrayList<>();
    for (String p : s.partitionKeys()) out.add(Expressions.sort(column(p), SortDirection.ASCENDING));
    for (String k : s.trimmedPrimaryKeys()) out.add(Expressions.sort(column(k), SortDirection.ASCENDING));
    return out.toArray(new SortOrder[0]);
  }

  /**
   * An unpartitioned table has exactly {@code bucket} groups of rows, so that many tasks; a
   * partitioned one has up to partitions x buckets, left to Spark's shuffle settings.
   */
  @Override
  public int requiredNumPartitions() {
    return table.schema().partitionKeys().isEmpty() ? table.options().bucket() : 0;
  }

  @Override
  public BatchWrite toBatch() {
    return new PkBatchWrite(table, mode, overwriteFilters, mergeUpsert);
  }

  /** {@code paimon_bucket(n, '<key types>', k1, k2, ...)} (or another function of the same arguments) over the bucket-key columns. */
  private Transform bucket(String function) {
    TableSchema s = table.schema();
    List<String> keys = s.bucketKeys();
    List<PaimonType> types = new ArrayList<>();
    Expression[] args = new Expression[keys.size() + 2];
    args[0] = Expressions.literal(table.options().bucket());
    for (int i = 0; i < keys.size(); i++) {
      types.add(s.field(keys.get(i)).type());
      args[i + 2] = column(keys.get(i));
    }
    args[1] = Expressions.literal(BucketKeyTypes.encode(types));
    return Expressions.apply(function, args);
  }

  /** Column names are parsed as SQL identifiers: quote them so names like {@code event-day} work. */
  private static Expression column(String name) {
    return Expressions.column("`" + name.replace("`", "``") + "`");
  }
}
