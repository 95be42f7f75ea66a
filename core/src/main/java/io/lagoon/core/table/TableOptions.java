package io.lagoon.core.table;

import java.io.Serializable;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Typed access to the table options Lagoon understands, with Paimon's names and defaults. */
public final class TableOptions implements Serializable {
  public static final String BUCKET = "bucket";
  public static final String BUCKET_KEY = "bucket-key";
  public static final String PRIMARY_KEY = "primary-key";
  public static final String PARTITION = "partition";
  public static final String FILE_FORMAT = "file.format";
  public static final String FILE_COMPRESSION = "file.compression";
  public static final String FILE_COMPRESSION_ZSTD_LEVEL = "file.compression.zstd-level";
  /** parquet-mr's key for the zstd level (its own default is 3). */
  static final String PARQUET_ZSTD_LEVEL = io.lagoon.core.io.ParquetFormatWriter.ZSTD_LEVEL;
  public static final String TARGET_FILE_SIZE = "target-file-size";
  public static final String MANIFEST_COMPRESSION = "manifest.compression";
  public static final String PARTITION_DEFAULT_NAME = "partition.default-name";
  public static final String COMMIT_MAX_RETRIES = "commit.max-retries";
  public static final String STATS_MODE = "metadata.stats-mode";
  public static final String NUM_SORTED_RUN_COMPACTION_TRIGGER = "num-sorted-run.compaction-trigger";
  public static final String NUM_LEVELS = "num-levels";
  public static final String MAX_SIZE_AMPLIFICATION_PERCENT = "compaction.max-size-amplification-percent";
  public static final String COMPACTION_SIZE_RATIO = "compaction.size-ratio";
  public static final String COMPACTION_DELETE_RATIO_THRESHOLD = "compaction.delete-ratio-threshold";
  public static final String WRITE_ONLY = "write-only";
  public static final String CHANGELOG_PRODUCER = "changelog-producer";
  public static final String CHANGELOG_FILE_PREFIX = "changelog-file.prefix";
  public static final String CHANGELOG_FILE_FORMAT = "changelog-file.format";
  public static final String ROWKIND_FIELD = "rowkind.field";
  public static final String COMPACTION_MIN_FILE_NUM = "compaction.min.file-num";
  public static final String COMPACTION_MAX_FILE_NUM = "compaction.max.file-num";
  public static final String POSTPONE_DEFAULT_BUCKET_NUM = "postpone.default-bucket-num";
  public static final String SNAPSHOT_NUM_RETAINED_MIN = "snapshot.num-retained.min";
  public static final String SNAPSHOT_NUM_RETAINED_MAX = "snapshot.num-retained.max";
  public static final String SNAPSHOT_TIME_RETAINED = "snapshot.time-retained";
  public static final String SNAPSHOT_EXPIRE_LIMIT = "snapshot.expire.limit";
  public static final String SNAPSHOT_CLEAN_EMPTY_DIRECTORIES = "snapshot.clean-empty-directories";
  public static final String TAG_NUM_RETAINED_MAX = "tag.num-retained-max";
  public static final String TAG_DEFAULT_TIME_RETAINED = "tag.default-time-retained";
  public static final String MERGE_ENGINE = "merge-engine";
  public static final String DELETION_VECTORS_ENABLED = "deletion-vectors.enabled";
  public static final String DELETION_VECTORS_BITMAP64 = "deletion-vectors.bitmap64";
  public static final String DYNAMIC_BUCKET_TARGET_ROW_NUM = "dynamic-bucket.target-row-num";
  public static final String DYNAMIC_BUCKET_INITIAL_BUCKETS = "dynamic-bucket.initial-buckets";
  public static final String DYNAMIC_BUCKET_MAX_BUCKETS = "dynamic-bucket.max-buckets";
  public static final String DYNAMIC_BUCKET_ASSIGNER_PARALLELISM = "dynamic-bucket.assigner-parallelism";

  public static final Set<String> FORMATS = Set.of("parquet", "orc");
  /** Codecs each format's writer knows (kept in step with the Parquet and ORC writers). */
  private static final Map<String, Set<String>> COMPRESSIONS = Map.of(
      "parquet", Set.of("zstd", "snappy", "gzip", "lz4", "none", "uncompressed"),
      "orc", Set.of("zstd", "snappy", "zlib", "lz4", "none", "uncompressed"));
  public static final String DEFAULT_PARTITION_NAME = "__DEFAULT_PARTITION__";

  private final Map<String, String> options;

  public TableOptions(Map<String, String> options) {
    this.options = options;
  }

  public Map<String, String> asMap() {
    return options;
  }

  public String get(String key, String dflt) {
    String v = options.get(key);
    return v == null ? dflt : v;
  }

  public int bucket() {
    return parseInt(BUCKET, -1);
  }

  /** Keys a dynamic bucket takes before new keys go to another (Paimon's default: 2,000,000). */
  public long dynamicBucketTargetRowNum() {
    long v = parseLong(DYNAMIC_BUCKET_TARGET_ROW_NUM, 2_000_000L);
    if (v <= 0) throw new IllegalArgumentException("Table option '" + DYNAMIC_BUCKET_TARGET_ROW_NUM + "' must be positive, got " + v);
    return v;
  }

  /** Upper bound of a partition's dynamic buckets, -1 for none (Paimon's default). */
  public int dynamicBucketMaxBuckets() {
    int v = parseInt(DYNAMIC_BUCKET_MAX_BUCKETS, -1);
    if (v != -1 && v <= 0) {
      throw new IllegalArgumentException("Table option '" + DYNAMIC_BUCKET_MAX_BUCKETS + "' must be -1 or positive, got " + v);
    }
    return v;
  }

  /** The number of bucket assigners, or 0 when unset (the write then picks it). */
  public int dynamicBucketAssigners(String key) {
    int v = parseInt(key, 0);
    if (v < 0 || (v == 0 && options.containsKey(key))) {
      throw new IllegalArgumentException("Table option '" + key + "' must be positive, got " + v);
    }
    return v;
  }

  public String fileFormat() {
    return get(FILE_FORMAT, "parquet").toLowerCase(Locale.ROOT);
  }

  public String fileCompression() {
    return get(FILE_COMPRESSION, "zstd").toLowerCase(Locale.ROOT);
  }

  /** Paimon's default is 1: fast to write and read, a little larger than zstd's own default 3. */
  public int zstdLevel() {
    return parseInt(FILE_COMPRESSION_ZSTD_LEVEL, 1);
  }

  /** Rolling size for data files; Paimon's default is 128 MB for append tables. */
  public long targetFileSize() {
    return MemorySize.parse(get(TARGET_FILE_SIZE, "128 mb"), TARGET_FILE_SIZE);
  }

  public String partitionDefaultName() {
    return get(PARTITION_DEFAULT_NAME, DEFAULT_PARTITION_NAME);
  }

  /** Sorted runs in a bucket that trigger a compaction on write (Paimon's default 5). */
  public int numSortedRunCompactionTrigger() {
    return parseInt(NUM_SORTED_RUN_COMPACTION_TRIGGER, 5);
  }

  /** LSM levels, 0 included; the top level is {@code numLevels() - 1}. Default: trigger + 1. */
  public int numLevels() {
    return parseInt(NUM_LEVELS, numSortedRunCompactionTrigger() + 1);
  }

  public int maxSizeAmplificationPercent() {
    return parseInt(MAX_SIZE_AMPLIFICATION_PERCENT, 200);
  }

  public int compactionSizeRatio() {
    return parseInt(COMPACTION_SIZE_RATIO, 1);
  }

  /**
   * {@code compaction.delete-ratio-threshold}: a data file whose deletion vector marks more than
   * this share of its rows is rewritten by the next compaction of its bucket. Paimon applies it to
   * append tables; Lagoon also to primary-key tables in deletion-vector mode, so the rows a scan
   * reads and throws away stay bounded. Default 0.2, as Paimon's.
   */
  public double compactionDeleteRatioThreshold() {
    String v = options.get(COMPACTION_DELETE_RATIO_THRESHOLD);
    if (v == null) return 0.2;
    try {
      double d = Double.parseDouble(v.trim());
      if (d < 0 || d > 1 || Double.isNaN(d)) throw new NumberFormatException();
      return d;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Table option '" + COMPACTION_DELETE_RATIO_THRESHOLD
          + "' must be a number between 0 and 1, got '" + v + "'");
    }
  }

  public boolean deletionVectors() {
    return Boolean.parseBoolean(get(DELETION_VECTORS_ENABLED, "false"));
  }

  /** Whether new vectors use the 64-bit form (Paimon 1.2+); existing ones keep theirs. */
  public boolean deletionVectorsBitmap64() {
    return Boolean.parseBoolean(get(DELETION_VECTORS_BITMAP64, "false"));
  }

  /** {@code none}, {@code input}, {@code lookup} or {@code full-compaction}, lower case. */
  public String changelogProducer() {
    String v = options.get(CHANGELOG_PRODUCER);
    return v == null || v.isBlank() ? "none" : v.trim().toLowerCase(Locale.ROOT);
  }

  /** Whether writes keep their input records as changelog files ({@code changelog-producer}={@code input}). */
  public boolean inputChangelog() {
    return changelogProducer().equals("input");
  }

  public String changelogFilePrefix() {
    return get(CHANGELOG_FILE_PREFIX, "changelog-");
  }

  public String changelogFileFormat() {
    String v = options.get(CHANGELOG_FILE_FORMAT);
    return v == null || v.isBlank() ? fileFormat() : v.trim().toLowerCase(Locale.ROOT);
  }

  public boolean writeOnly() {
    return Boolean.parseBoolean(get(WRITE_ONLY, "false").trim());
  }

  /** The column holding each input row's kind ({@code +I}, {@code -U}, {@code +U}, {@code -D}), or null. */
  public String rowKindField() {
    return options.get(ROWKIND_FIELD);
  }

  /** Small files an append bucket collects before a write (or a minor compaction) merges them; Paimon's default 5. */
  public int compactionMinFileNum() {
    return parseInt(COMPACTION_MIN_FILE_NUM, 5);
  }

  /**
   * Buckets a partition of a postponed-bucket table gets when compaction first gives its rows
   * buckets (a partition with bucketed files keeps its count); Paimon's default 1.
   */
  public int postponeDefaultBucketNum() {
    int n = parseInt(POSTPONE_DEFAULT_BUCKET_NUM, 1);
    if (n < 1) {
      throw new IllegalArgumentException("Table option '" + POSTPONE_DEFAULT_BUCKET_NUM + "' must be at least 1, got '"
          + options.get(POSTPONE_DEFAULT_BUCKET_NUM) + "'");
    }
    return n;
  }

  /** Files one append compaction merges into one at most; Paimon's default 50. */
  public int compactionMaxFileNum() {
    return parseInt(COMPACTION_MAX_FILE_NUM, 50);
  }

  /** Bytes of a string or binary value a z-order or Hilbert key takes (Paimon's {@code zorder.var-length-contribution}, 8). */
  public int zorderVarLengthContribution() {
    return parseInt("zorder.var-length-contribution", 8);
  }

  /** Snapshots always kept by expiry (Paimon's default 10). */
  public int snapshotNumRetainedMin() {
    return parseInt(SNAPSHOT_NUM_RETAINED_MIN, 10);
  }

  /** Snapshots kept at most, whatever their age (Paimon's default: no limit). */
  public int snapshotNumRetainedMax() {
    return parseInt(SNAPSHOT_NUM_RETAINED_MAX, Integer.MAX_VALUE);
  }

  /** Snapshots younger than this are kept (beyond the minimum); Paimon's default 1 hour. */
  public java.time.Duration snapshotTimeRetained() {
    String v = options.get(SNAPSHOT_TIME_RETAINED);
    return v == null ? java.time.Duration.ofHours(1) : Durations.parse(v, "Table option '" + SNAPSHOT_TIME_RETAINED + "'");
  }

  /** How long a consumer not updated is kept ({@code consumer.expiration-time}); null: forever (Paimon's default). */
  public java.time.Duration consumerExpirationTime() {
    String v = options.get("consumer.expiration-time");
    return v == null ? null : Durations.parse(v, "Table option 'consumer.expiration-time'");
  }

  /** Snapshots one expiry removes at most (Paimon 1.x's default 50). */
  public int snapshotExpireLimit() {
    return parseInt(SNAPSHOT_EXPIRE_LIMIT, 50);
  }

  /** Whether expiry removes bucket and partition folders it leaves empty (Paimon's default: no). */
  public boolean cleanEmptyDirectories() {
    return Boolean.parseBoolean(get(SNAPSHOT_CLEAN_EMPTY_DIRECTORIES,
        get("snapshot.expire.clean-empty-directories", "false")).trim());
  }

  /** Tags kept at most (the oldest go first); null for no limit. */
  public Integer tagNumRetainedMax() {
    return options.containsKey(TAG_NUM_RETAINED_MAX) ? parseInt(TAG_NUM_RETAINED_MAX, 0) : null;
  }

  /** How long a tag created without its own retention lives; null for ever. */
  public java.time.Duration tagDefaultTimeRetained() {
    String v = options.get(TAG_DEFAULT_TIME_RETAINED);
    return v == null ? null : Durations.parse(v, "Table option '" + TAG_DEFAULT_TIME_RETAINED + "'");
  }

  public int commitMaxRetries() {
    return parseInt(COMMIT_MAX_RETRIES, 100);
  }

  private long parseLong(String key, long dflt) {
    String v = options.get(key);
    if (v == null) return dflt;
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Table option '" + key + "' must be an integer, got '" + v + "'");
    }
  }

  private int parseInt(String key, int dflt) {
    String v = options.get(key);
    if (v == null) return dflt;
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Table option '" + key + "' must be an integer, got '" + v + "'");
    }
  }

  /**
   * A Hadoop configuration for data-file writers: the base plus the table's format-specific
   * options ({@code parquet.*}, {@code orc.*}), which Paimon also hands to its format writers, and
   * the zstd level of Parquet files ({@code file.compression.zstd-level}; ORC's writer has a fixed
   * level).
   */
  public org.apache.hadoop.conf.Configuration writerConf(org.apache.hadoop.conf.Configuration base) {
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(base);
    conf.setInt(PARQUET_ZSTD_LEVEL, zstdLevel());
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (e.getKey().startsWith("parquet.") || e.getKey().startsWith("orc.")) conf.set(e.getKey(), e.getValue());
    }
    return conf;
  }

  /** Rejects options whose values Lagoon cannot honour, before anything is written. */
  public static void validate(Map<String, String> options) {
    TableOptions o = new TableOptions(options);
    if (!FORMATS.contains(o.fileFormat())) {
      throw new IllegalArgumentException("Unsupported file.format '" + options.get(FILE_FORMAT)
          + "': Lagoon writes 'parquet' (default) or 'orc'");
    }
    String codec = o.fileCompression();
    if (!COMPRESSIONS.get(o.fileFormat()).contains(codec)) {
      throw new IllegalArgumentException("Unsupported file.compression '" + options.get(FILE_COMPRESSION) + "' for "
          + o.fileFormat() + " files; use one of " + new java.util.TreeSet<>(COMPRESSIONS.get(o.fileFormat())));
    }
    o.zstdLevel(); // an integer
    io.lagoon.core.io.ParquetWriterOptions.check(options);
    if (o.targetFileSize() <= 0) {
      throw new IllegalArgumentException("Table option '" + TARGET_FILE_SIZE + "' must be positive, got '"
          + options.get(TARGET_FILE_SIZE) + "'");
    }
    int bucket = o.bucket();
    // -1: dynamic or unaware, -2: postponed (Paimon 1.1+), n > 0: fixed.
    if (bucket == 0 || bucket < -2) {
      throw new IllegalArgumentException("Table option 'bucket' must be a positive number of buckets, -1 (dynamic) or -2 "
          + "(postponed), got '"
          + options.get(BUCKET) + "'");
    }
    o.postponeDefaultBucketNum();
    if (o.snapshotNumRetainedMin() < 1) {
      throw new IllegalArgumentException("Table option '" + SNAPSHOT_NUM_RETAINED_MIN + "' must be at least 1, got '"
          + options.get(SNAPSHOT_NUM_RETAINED_MIN) + "'");
    }
    if (o.snapshotNumRetainedMax() < o.snapshotNumRetainedMin()) {
      throw new IllegalArgumentException("Table option '" + SNAPSHOT_NUM_RETAINED_MAX + "' (" + o.snapshotNumRetainedMax()
          + ") must not be less than '" + SNAPSHOT_NUM_RETAINED_MIN + "' (" + o.snapshotNumRetainedMin() + ")");
    }
    o.snapshotTimeRetained();
    if (o.snapshotExpireLimit() < 1) {
      throw new IllegalArgumentException("Table option '" + SNAPSHOT_EXPIRE_LIMIT + "' must be at least 1");
    }
    if (o.tagNumRetainedMax() != null && o.tagNumRetainedMax() < 1) {
      throw new IllegalArgumentException("Table option '" + TAG_NUM_RETAINED_MAX + "' must be at least 1");
    }
    o.tagDefaultTimeRetained();
    if (o.commitMaxRetries() < 0) {
      throw new IllegalArgumentException("Table option '" + COMMIT_MAX_RETRIES + "' must not be negative");
    }
  }
}
