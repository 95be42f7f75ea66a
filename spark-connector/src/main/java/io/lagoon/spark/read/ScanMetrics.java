package io.lagoon.spark.read;

import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/** The scan metrics Lagoon shows in the Spark UI. */
public final class ScanMetrics {
  public static final String FILES_SCANNED = "lagoonFilesScanned";
  public static final String FILES_SKIPPED = "lagoonFilesSkipped";
  public static final String MANIFESTS_SKIPPED = "lagoonManifestsSkipped";
  public static final String FILES_SKIPPED_BY_PARTITION = "lagoonFilesSkippedByPartition";
  public static final String FILES_SKIPPED_BY_STATS = "lagoonFilesSkippedByStats";
  public static final String FILES_SKIPPED_BY_INDEX = "lagoonFilesSkippedByIndex";
  public static final String FILES_SKIPPED_BY_KEY_RANGE = "lagoonFilesSkippedByKeyRange";
  public static final String FILES_SKIPPED_AT_RUN_TIME = "lagoonFilesSkippedAtRunTime";
  public static final String SECTIONS_MERGED = "lagoonSectionsMerged";
  public static final String MERGED_ROWS = "lagoonMergedRows";
  public static final String COLUMNAR_MERGED_ROWS = "lagoonColumnarMergedRows";
  public static final String ROWS_DELETED_BY_VECTORS = "lagoonRowsDeletedByVectors";
  public static final String ROWS_SKIPPED_BY_INDEX = "lagoonRowsSkippedByIndex";
  public static final String ROW_GROUPS_SKIPPED_BY_INDEX = "lagoonRowGroupsSkippedByIndex";

  private ScanMetrics() {}

  /** Data files the scan reads after pruning (runtime filters included). */
  public static final class FilesScanned extends CustomSumMetric {
    @Override public String name() { return FILES_SCANNED; }
    @Override public String description() { return "data files scanned"; }
  }

  /** Data files pruned by partition filters, min/max stats and runtime filters. */
  public static final class FilesSkipped extends CustomSumMetric {
    @Override public String name() { return FILES_SKIPPED; }
    @Override public String description() { return "data files skipped"; }
  }

  /** Manifests pruned by their partition stats. */
  public static final class ManifestsSkipped extends CustomSumMetric {
    @Override public String name() { return MANIFESTS_SKIPPED; }
    @Override public String description() { return "manifests skipped"; }
  }

  /** Of the data files skipped, those their partition values ruled out. */
  public static final class FilesSkippedByPartition extends CustomSumMetric {
    @Override public String name() { return FILES_SKIPPED_BY_PARTITION; }
    @Override public String description() { return "data files skipped by partition"; }
  }

  /** Of the data files skipped, those their value min/max stats ruled out (append tables). */
  public static final class FilesSkippedByStats extends CustomSumMetric {
    @Override public String name() { return FILES_SKIPPED_BY_STATS; }
    @Override public String description() { return "data files skipped by min/max stats"; }
  }

  /** Of the data files skipped, those the range of keys they hold ruled out (primary-key tables). */
  public static final class FilesSkippedByKeyRange extends CustomSumMetric {
    @Override public String name() { return FILES_SKIPPED_BY_KEY_RANGE; }
    @Override public String description() { return "data files skipped by key range"; }
  }

  /**
   * Of the data files skipped, those runtime filters ruled out: a MERGE source's key values
   * against the files' key ranges, or the files a copy-on-write statement found no match in.
   */
  public static final class FilesSkippedAtRunTime extends CustomSumMetric {
    @Override public String name() { return FILES_SKIPPED_AT_RUN_TIME; }
    @Override public String description() { return "data files skipped by runtime filter (key range, matched files)"; }
  }

  /** Of the data files skipped, those only their file indexes (Bloom filters, bitmaps) ruled out. */
  public static final class FilesSkippedByIndex extends CustomSumMetric {
    @Override public String name() { return FILES_SKIPPED_BY_INDEX; }
    @Override public String description() { return "data files skipped by file index"; }
  }

  /** Primary-key sections (overlapping files of a bucket) that needed a merge. */
  public static final class SectionsMerged extends CustomSumMetric {
    @Override public String name() { return SECTIONS_MERGED; }
    @Override public String description() { return "primary-key sections merged"; }
  }

  /** Rows that merge-on-read produced (one per live key of the merged sections). */
  public static final class MergedRows extends CustomSumMetric {
    @Override public String name() { return MERGED_ROWS; }
    @Override public String description() { return "rows from merged sections"; }
  }

  /** Of those, rows the columnar deduplicate merge produced (no row-by-row records). */
  public static final class ColumnarMergedRows extends CustomSumMetric {
    @Override public String name() { return COLUMNAR_MERGED_ROWS; }
    @Override public String description() { return "rows from merged sections, merged columnar"; }
  }

  /**
   * Rows of the planned files that their bitmap or bit-sliced indexes rule out: the reader leaves
   * them out as deleted rows (not given to Spark's filter).
   */
  public static final class RowsSkippedByIndex extends CustomSumMetric {
    @Override public String name() { return ROWS_SKIPPED_BY_INDEX; }
    @Override public String description() { return "rows skipped by file index (bitmaps)"; }
  }

  /** Parquet row groups not read at all: their file's row selection keeps none of their rows. */
  public static final class RowGroupsSkippedByIndex extends CustomSumMetric {
    @Override public String name() { return ROW_GROUPS_SKIPPED_BY_INDEX; }
    @Override public String description() { return "row groups skipped by file index"; }
  }

  /** Rows of the files read that their deletion vectors left out (in files without a row selection). */
  public static final class RowsDeletedByVectors extends CustomSumMetric {
    @Override public String name() { return ROWS_DELETED_BY_VECTORS; }
    @Override public String description() { return "rows dropped by deletion vectors"; }
  }

  public static CustomMetric[] supported() {
    return new CustomMetric[] {new FilesScanned(), new FilesSkipped(), new ManifestsSkipped(), new FilesSkippedByPartition(),
        new FilesSkippedByStats(), new FilesSkippedByKeyRange(), new FilesSkippedByIndex(), new FilesSkippedAtRunTime(),
        new SectionsMerged(),
        new MergedRows(), new ColumnarMergedRows(), new RowsDeletedByVectors(), new RowsSkippedByIndex(),
        new RowGroupsSkippedByIndex()};
  }

  public static CustomTaskMetric value(String name, long value) {
    return new CustomTaskMetric() {
      @Override public String name() { return name; }
      @Override public long value() { return value; }
    };
  }
}
