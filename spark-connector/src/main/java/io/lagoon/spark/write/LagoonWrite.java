package io.lagoon.spark.write;

import io.lagoon.core.table.FileStoreTable;
import java.util.List;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.distributions.Distributions;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;
import org.apache.spark.sql.connector.write.Write;

/**
 * A write into an append table. Rows are sorted by partition within each task, so a task keeps
 * one file open per bucket at a time and writes each partition's rows into as few files as
 * possible; a fixed-bucket table's rows are first clustered by bucket.
 */
public class LagoonWrite implements Write, RequiresDistributionAndOrdering {
  private final FileStoreTable table;
  private final LogicalWriteInfo info;
  private final LagoonWriteBuilder.OverwriteMode mode;
  private final org.apache.spark.sql.sources.Filter[] overwriteFilters;

  LagoonWrite(FileStoreTable table, LogicalWriteInfo info, LagoonWriteBuilder.OverwriteMode mode,
              org.apache.spark.sql.sources.Filter[] overwriteFilters) {
    this.table = table;
    this.info = info;
    this.mode = mode;
    this.overwriteFilters = overwriteFilters;
  }

  @Override
  public String description() {
    return "LagoonWrite " + table.fullName() + (mode == LagoonWriteBuilder.OverwriteMode.NONE ? "" : " overwrite=" + mode);
  }

  /** A fixed-bucket table is written like a primary-key table: one task per (partition, bucket). */
  @Override
  public Distribution requiredDistribution() {
    return table.options().bucket() > 0 ? BucketDistribution.of(table) : Distributions.unspecified();
  }

  @Override
  public int requiredNumPartitions() {
    return table.options().bucket() > 0 ? BucketDistribution.numPartitions(table) : 0;
  }

  @Override
  public SortOrder[] requiredOrdering() {
    List<String> keys = table.schema().partitionKeys();
    SortOrder[] out = new SortOrder[keys.size()];
    for (int i = 0; i < out.length; i++) out[i] = Expressions.sort(Expressions.column(quoted(keys.get(i))), SortDirection.ASCENDING);
    return out;
  }

  @Override
  public BatchWrite toBatch() {
    return new LagoonBatchWrite(table, mode, overwriteFilters);
  }

  /** A streaming query's writes: one batch write per micro-batch, each committed once ({@link LagoonStreamingWrite}). */
  @Override
  public org.apache.spark.sql.connector.write.streaming.StreamingWrite toStreaming() {
    return new LagoonStreamingWrite(table, info.queryId(), () -> new LagoonBatchWrite(table, mode, overwriteFilters));
  }

  /** Column names are parsed as SQL identifiers: quote them so names like {@code event-day} work. */
  private static String quoted(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
