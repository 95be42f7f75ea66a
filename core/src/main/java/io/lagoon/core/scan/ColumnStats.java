package io.lagoon.core.scan;

/** Min, max and null count of one column over some rows; any of them may be unknown (null). */
public interface ColumnStats {
  /** Catalyst internal min value, or null when unknown. */
  Object min(int column);

  Object max(int column);

  /** Null count, or null when unknown. */
  Long nullCount(int column);

  long rowCount();

  /** True when min and max are exact (not truncated), so min == max means every value is equal. */
  boolean exact(int column);
}
