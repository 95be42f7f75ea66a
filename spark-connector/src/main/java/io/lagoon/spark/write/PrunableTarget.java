package io.lagoon.spark.write;

/**
 * A row-level operation whose target scan can be pruned at run time by the values a MERGE looks
 * for in one column (the MERGE target pruning of Lagoon's SQL extensions).
 */
public interface PrunableTarget {
  /** Whether the target scan prunes files by values of this column. */
  boolean prunesBy(String column);
}
