package io.lagoon.core.scan;

import io.lagoon.core.manifest.DataFileMeta;
import java.io.Serializable;
import java.util.List;

/** The live files of one (partition, bucket) that a reader must read, with their folder. */
public final class DataSplit implements Serializable {
  public final byte[] partition;
  public final int bucket;
  /** Folder holding the files, relative to the table folder, ending in {@code bucket-N}. */
  public final String bucketPath;
  public final List<DataFileMeta> files;

  public DataSplit(byte[] partition, int bucket, String bucketPath, List<DataFileMeta> files) {
    this.partition = partition;
    this.bucket = bucket;
    this.bucketPath = bucketPath;
    this.files = List.copyOf(files);
  }

  public long rowCount() {
    long n = 0;
    for (DataFileMeta f : files) n += f.rowCount;
    return n;
  }

  public long sizeInBytes() {
    long n = 0;
    for (DataFileMeta f : files) n += f.fileSize;
    return n;
  }
}
