package io.lagoon.core.scan;

import io.lagoon.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.sources.Filter;

/**
 * Which of a scan's pushed filters each skipping mechanism of {@link ScanPlanner} can use, for
 * {@code EXPLAIN}: the partition values (filters on partition columns only), the files' min/max
 * stats (append tables) or key ranges (primary-key tables, filters on key columns only), and the
 * file indexes. A filter listed may skip files; one not listed never does.
 */
public final class FilterUse {
  private FilterUse() {}

  /** By mechanism ({@code partition}, {@code stats}, {@code keyRange}, {@code fileIndex}), the filters it can use; empty ones left out. */
  public static Map<String, List<Filter>> of(TableSchema schema, List<Filter> filters) {
    Set<String> partition = new HashSet<>(schema.partitionKeys());
    boolean keyed = !schema.primaryKeys().isEmpty();
    // Key stats hold the key without its partition columns (those are decided by partition).
    Set<String> keys = new HashSet<>(schema.trimmedPrimaryKeys());
    List<Filter> byPartition = new ArrayList<>();
    List<Filter> byStats = new ArrayList<>();
    List<Filter> valueFilters = new ArrayList<>();
    for (Filter f : filters) {
      List<String> refs = Arrays.asList(f.references());
      if (!partition.isEmpty() && partition.containsAll(refs)) {
        if (StatsPredicate.decides(f)) byPartition.add(f);
        continue;
      }
      valueFilters.add(f);
      if (StatsPredicate.decides(f) && (!keyed || keys.containsAll(refs))) byStats.add(f);
    }
    Map<String, List<Filter>> out = new LinkedHashMap<>();
    put(out, "partition", byPartition);
    put(out, keyed ? "keyRange" : "stats", byStats);
    put(out, "fileIndex", io.lagoon.core.fileindex.FileIndexPredicate.usable(schema, valueFilters,
        ScanPlanner.indexesDecideKeysOnly(schema)));
    return out;
  }

  private static void put(Map<String, List<Filter>> out, String mechanism, List<Filter> filters) {
    if (!filters.isEmpty()) out.put(mechanism, filters);
  }
}
