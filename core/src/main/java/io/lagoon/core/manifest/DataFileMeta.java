package io.lagoon.core.manifest;

import java.io.Serializable;
import java.util.List;

/** Metadata of one data file as a manifest entry's {@code _FILE} record holds it. */
public final class DataFileMeta implements Serializable {
  public final String fileName;
  public final long fileSize;
  public final long rowCount;
  public final byte[] minKey;
  public final byte[] maxKey;
  public final SimpleStats keyStats;
  public final SimpleStats valueStats;
  public final long minSequenceNumber;
  public final long maxSequenceNumber;
  public final long schemaId;
  public final int level;
  public final List<String> extraFiles;
  /** Local date-time of creation as epoch millis, as Paimon stores it. */
  public final Long creationTimeMillis;
  public final Long deleteRowCount;
  public final byte[] embeddedIndex;
  /** 0 = written by an append, 1 = written by compaction. */
  public final Integer fileSource;
  /** Columns the value stats cover; null means every column of the file's schema. */
  public final List<String> valueStatsCols;
  public final String externalPath;

  public DataFileMeta(String fileName, long fileSize, long rowCount, byte[] minKey, byte[] maxKey,
                      SimpleStats keyStats, SimpleStats valueStats, long minSequenceNumber,
                      long maxSequenceNumber, long schemaId, int level, List<String> extraFiles,
                      Long creationTimeMillis, Long deleteRowCount, byte[] embeddedIndex,
                      Integer fileSource, List<String> valueStatsCols, String externalPath) {
    this.fileName = fileName;
    this.fileSize = fileSize;
    this.rowCount = rowCount;
    this.minKey = minKey;
    this.maxKey = maxKey;
    this.keyStats = keyStats;
    this.valueStats = valueStats;
    this.minSequenceNumber = minSequenceNumber;
    this.maxSequenceNumber = maxSequenceNumber;
    this.schemaId = schemaId;
    this.level = level;
    this.extraFiles = extraFiles == null ? List.of() : List.copyOf(extraFiles);
    this.creationTimeMillis = creationTimeMillis;
    this.deleteRowCount = deleteRowCount;
    this.embeddedIndex = embeddedIndex;
    this.fileSource = fileSource;
    this.valueStatsCols = valueStatsCols;
    this.externalPath = externalPath;
  }

  /** The same file with other indexes: embedded bytes (or null) and the files beside it. */
  public DataFileMeta withIndex(byte[] index, List<String> extra) {
    return new DataFileMeta(fileName, fileSize, rowCount, minKey, maxKey, keyStats, valueStats, minSequenceNumber,
        maxSequenceNumber, schemaId, level, extra, creationTimeMillis, deleteRowCount, index, fileSource,
        valueStatsCols, externalPath);
  }

  /** The same file marked as written by a compaction (Paimon's file source 1). */
  public DataFileMeta asCompacted() {
    return new DataFileMeta(fileName, fileSize, rowCount, minKey, maxKey, keyStats, valueStats, minSequenceNumber,
        maxSequenceNumber, schemaId, level, extraFiles, creationTimeMillis, deleteRowCount, embeddedIndex, 1,
        valueStatsCols, externalPath);
  }

  /** A new append-table file: empty keys, level 0, appended. */
  public static DataFileMeta forAppend(String fileName, long fileSize, long rowCount, SimpleStats valueStats,
                                       long minSeq, long maxSeq, long schemaId) {
    return forAppend(fileName, fileSize, rowCount, valueStats, minSeq, maxSeq, schemaId, null, List.of());
  }

  /** @param embeddedIndex its file indexes when embedded; @param extraFiles files beside it (its index file) */
  public static DataFileMeta forAppend(String fileName, long fileSize, long rowCount, SimpleStats valueStats,
                                       long minSeq, long maxSeq, long schemaId, byte[] embeddedIndex,
                                       List<String> extraFiles) {
    return new DataFileMeta(fileName, fileSize, rowCount, SimpleStats.EMPTY_ROW, SimpleStats.EMPTY_ROW,
        SimpleStats.EMPTY, valueStats, minSeq, maxSeq, schemaId, 0, extraFiles,
        localNowMillis(), 0L, embeddedIndex, 0, null, null);
  }

  public static long localNowMillis() {
    java.time.LocalDateTime now = java.time.LocalDateTime.now();
    return now.atZone(java.time.ZoneOffset.UTC).toInstant().toEpochMilli();
  }

  @Override
  public String toString() {
    return fileName + "(rows=" + rowCount + ", level=" + level + ", schema=" + schemaId + ")";
  }
}
