package io.lagoon.spark.write;

import io.lagoon.core.table.FileStoreTable;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsDynamicOverwrite;
import org.apache.spark.sql.connector.write.SupportsOverwrite;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.sources.AlwaysTrue;
import org.apache.spark.sql.sources.Filter;

/**
 * Chooses the kind of write (append, overwrite by partition filter, dynamic partition overwrite,
 * truncate) and the writer: files of an append table, or key-value files of a primary-key table.
 */
public class LagoonWriteBuilder implements WriteBuilder, SupportsOverwrite, SupportsDynamicOverwrite, SupportsTruncate {
  private final FileStoreTable table;
  private final LogicalWriteInfo info;
  private OverwriteMode mode = OverwriteMode.NONE;
  private Filter[] overwriteFilters = new Filter[0];

  /** What an overwrite replaces. */
  enum OverwriteMode { NONE, FILTER, DYNAMIC }

  public LagoonWriteBuilder(FileStoreTable table, LogicalWriteInfo info) {
    this.table = table;
    this.info = info;
  }

  @Override
  public WriteBuilder overwrite(Filter[] filters) {
    Set<String> partitionKeys = new HashSet<>(table.schema().partitionKeys());
    for (Filter f : filters) {
      if (f instanceof AlwaysTrue) continue;
      if (!partitionKeys.containsAll(Arrays.asList(f.references())) || !PartitionFilters.exactlyEvaluable(f)) {
        throw new IllegalArgumentException("Cannot overwrite " + table.fullName() + " by filter " + f
            + ": only filters on partition columns " + table.schema().partitionKeys() + " are supported");
      }
    }
    this.mode = OverwriteMode.FILTER;
    this.overwriteFilters = filters;
    return this;
  }

  @Override
  public WriteBuilder overwriteDynamicPartitions() {
    this.mode = OverwriteMode.DYNAMIC;
    return this;
  }

  @Override
  public WriteBuilder truncate() {
    this.mode = OverwriteMode.FILTER;
    this.overwriteFilters = new Filter[0];
    return this;
  }

  @Override
  public Write build() {
    if (table.hasPrimaryKey()) {
      boolean mergeUpsert = Boolean.parseBoolean(info.options().getOrDefault(UpsertWrites.MERGE_OPTION, "false"));
      return new PkWrite(table, mode, overwriteFilters, mergeUpsert).forQuery(info.queryId());
    }
    return new LagoonWrite(table, info, mode, overwriteFilters);
  }
}
