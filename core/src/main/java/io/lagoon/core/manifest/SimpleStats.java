package io.lagoon.core.manifest;

import java.io.Serializable;

/**
 * Per-column min, max and null count of a file or a manifest's partitions. Min and max are
 * serialized BinaryRows (arity prefix + row bytes); a null count is null when unknown.
 */
public final class SimpleStats implements Serializable {
  /** Serialized empty BinaryRow: arity 0 plus its 8-byte header. */
  public static final byte[] EMPTY_ROW = new byte[12];
  public static final SimpleStats EMPTY = new SimpleStats(EMPTY_ROW, EMPTY_ROW, new Long[0]);

  private final byte[] minValues;
  private final byte[] maxValues;
  private final Long[] nullCounts;

  public SimpleStats(byte[] minValues, byte[] maxValues, Long[] nullCounts) {
    this.minValues = minValues;
    this.maxValues = maxValues;
    this.nullCounts = nullCounts;
  }

  public byte[] minValues() { return minValues; }
  public byte[] maxValues() { return maxValues; }
  public Long[] nullCounts() { return nullCounts; }
}
