package io.lagoon.core.manifest;

import java.io.Serializable;

/** One row of a manifest list: a manifest file and a summary of what it holds. */
public final class ManifestFileMeta implements Serializable {
  public final String fileName;
  public final long fileSize;
  public final long numAddedFiles;
  public final long numDeletedFiles;
  public final SimpleStats partitionStats;
  public final long schemaId;

  public ManifestFileMeta(String fileName, long fileSize, long numAddedFiles, long numDeletedFiles,
                          SimpleStats partitionStats, long schemaId) {
    this.fileName = fileName;
    this.fileSize = fileSize;
    this.numAddedFiles = numAddedFiles;
    this.numDeletedFiles = numDeletedFiles;
    this.partitionStats = partitionStats;
    this.schemaId = schemaId;
  }
}
