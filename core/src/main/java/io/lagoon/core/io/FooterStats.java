package io.lagoon.core.io;

/**
 * One column's stats as a file format's footer keeps them: min and max as Catalyst values, not
 * truncated (both null when the column holds no value), and the number of nulls.
 */
public final class FooterStats {
  final Object min;
  final Object max;
  final long nulls;

  FooterStats(Object min, Object max, long nulls) {
    this.min = min;
    this.max = max;
    this.nulls = nulls;
  }
}
