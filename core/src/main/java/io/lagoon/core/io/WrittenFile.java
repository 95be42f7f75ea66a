package io.lagoon.core.io;

import java.io.Serializable;

/** What a closed data file writer produced: the file and the stats gathered while writing it. */
public final class WrittenFile implements Serializable {
  public final String fileName;
  public final long fileSize;
  public final long rowCount;
  public final Object[] mins;
  public final Object[] maxs;
  public final Long[] nullCounts;

  public WrittenFile(String fileName, long fileSize, long rowCount, Object[] mins, Object[] maxs, Long[] nullCounts) {
    this.fileName = fileName;
    this.fileSize = fileSize;
    this.rowCount = rowCount;
    this.mins = mins;
    this.maxs = maxs;
    this.nullCounts = nullCounts;
  }
}
