package io.lagoon.spark.write;

import io.lagoon.core.dynamicbucket.AssignerPlan;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DeltaWrite;
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
    return BucketDistribution.of(table);
  }

  @Override
  public SortOrder[] requiredOrdering() {
    TableSchema s = table.schema();
    List<SortOrder> out = new ArrayList<>();
    // A cross-partition table's row-level records may carry only the key (a DELETE's row id).
    boolean partitionsKnown = !(this instanceof DeltaWrite) || !AssignerPlan.isCrossPartition(table);
    if (partitionsKnown) {
      for (String p : s.partitionKeys()) out.add(Expressions.sort(column(p), SortDirection.ASCENDING));
    }
    for (String k : s.trimmedPrimaryKeys()) out.add(Expressions.sort(column(k), SortDirection.ASCENDING));
    return out.toArray(new SortOrder[0]);
  }

  @Override
  public int requiredNumPartitions() {
    return BucketDistribution.numPartitions(table);
  }

  @Override
  public BatchWrite toBatch() {
    return new PkBatchWrite(table, mode, overwriteFilters, mergeUpsert);
  }

  /** The streaming query's id, which commits of its micro-batches carry (set by the builder). */
  private String queryId;

  PkWrite forQuery(String id) {
    this.queryId = id;
    return this;
  }

  /** A streaming query's writes: one batch write per micro-batch, each committed once ({@link LagoonStreamingWrite}). */
  @Override
  public org.apache.spark.sql.connector.write.streaming.StreamingWrite toStreaming() {
    return new LagoonStreamingWrite(table, queryId, () -> new PkBatchWrite(table, mode, overwriteFilters, mergeUpsert));
  }

  private static Expression column(String name) {
    return BucketDistribution.column(name);
  }
}
