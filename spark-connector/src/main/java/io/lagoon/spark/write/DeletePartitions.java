package io.lagoon.spark.write;

import io.lagoon.core.table.FileStoreTable;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.internal.connector.PredicateUtils;
import org.apache.spark.sql.sources.Filter;
import scala.Option;

/** A DELETE condition that selects whole partitions, as partition filters. */
public final class DeletePartitions {
  private DeletePartitions() {}

  /**
   * The condition as filters on partition columns that are evaluated exactly on a partition's
   * values, or null when any part of it is not (then the DELETE reads rows).
   */
  public static Filter[] filters(FileStoreTable table, org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
    Set<String> partitionKeys = new HashSet<>(table.schema().partitionKeys());
    Filter[] out = new Filter[predicates.length];
    for (int i = 0; i < predicates.length; i++) {
      Option<Filter> f = PredicateUtils.toV1(predicates[i]);
      if (f.isEmpty()) return null;
      Filter filter = f.get();
      boolean alwaysTrue = filter instanceof org.apache.spark.sql.sources.AlwaysTrue;
      if (!alwaysTrue && (partitionKeys.isEmpty() || !partitionKeys.containsAll(Arrays.asList(filter.references())))) {
        return null;
      }
      if (!PartitionFilters.exactlyEvaluable(filter)) return null;
      out[i] = filter;
    }
    return out;
  }

  public static Predicate<InternalRow> matcher(FileStoreTable table, Filter[] filters) {
    return PartitionFilters.matcher(filters, table.schema().partitionFields());
  }
}
