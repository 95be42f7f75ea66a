package io.lagoon.core.deletionvectors;

import java.io.Serializable;

/**
 * Where an index file holds the vector of one data file, as the index manifest lists it: the
 * offset of the vector's size int, its length, and the deleted row count (null when the writer
 * did not record it, Paimon before 1.0).
 */
public final class DeletionVectorRange implements Serializable {
  public final String dataFile;
  public final int offset;
  public final int length;
  public final Long cardinality;

  public DeletionVectorRange(String dataFile, int offset, int length, Long cardinality) {
    this.dataFile = dataFile;
    this.offset = offset;
    this.length = length;
    this.cardinality = cardinality;
  }

  @Override
  public String toString() {
    return dataFile + "@" + offset + "+" + length;
  }
}
