package io.lagoon.spark.read;

import io.lagoon.core.deletionvectors.DeletionVectorIndex;
import io.lagoon.core.read.DataFileReader;
import io.lagoon.core.scan.DataSplit;
import io.lagoon.core.scan.ScanPlan;
import io.lagoon.core.scan.ScanPlanner;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.manifest.DataFileMeta;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportPartitioning;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.connector.read.partitioning.KeyGroupedPartitioning;
import org.apache.spark.sql.connector.read.partitioning.Partitioning;
import org.apache.spark.sql.connector.read.partitioning.UnknownPartitioning;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * A planned scan of the latest snapshot (or of a given one). Planning (manifest replay and pruning) happens once,
 * lazily, and feeds the statistics Spark uses for join planning as well as the input partitions.
 */
public class LagoonScan implements Scan, Batch, SupportsReportStatistics, SupportsReportPartitioning {
  private final FileStoreTable table;
  private final StructType tableSchema;
  private final StructType required;
  private final List<Filter> filters;
  private final Integer limit;
  private final List<String> metadata;
  private ScanPlan plan;
  private DeletionVectorIndex vectors = DeletionVectorIndex.empty();
  private PkPartitions pkPartitions;
  /**
   * A copy-on-write rewrite reads whole files: filters only prune files (never row groups or
   * rows), and at run time only the files Spark found matches in are kept ({@link #keepFiles}).
   */
  private final boolean wholeFileRewrite;
  /** Paths of the files to read, set by a runtime filter; null for all planned files. */
  private java.util.Set<String> keptFiles;
  /** Primary-key tables: which files a runtime filter keeps; null for all planned files. */
  private java.util.function.Predicate<DataFileMeta> keptKeyRanges;
  /** The snapshot to read (time travel); null for the latest one when the scan is planned. */
  private Snapshot pinned;

  public LagoonScan(FileStoreTable table, StructType tableSchema, StructType required, List<Filter> filters, Integer limit) {
    this(table, tableSchema, required, List.of(), filters, limit);
  }

  /** @param metadata metadata columns returned after the table's ({@link MetadataColumns}) */
  public LagoonScan(FileStoreTable table, StructType tableSchema, StructType required, List<String> metadata,
                    List<Filter> filters, Integer limit) {
    this(table, tableSchema, required, metadata, filters, limit, false);
  }

  LagoonScan(FileStoreTable table, StructType tableSchema, StructType required, List<String> metadata,
             List<Filter> filters, Integer limit, boolean wholeFileRewrite) {
    this.wholeFileRewrite = wholeFileRewrite;
    this.metadata = List.copyOf(metadata);
    this.table = table;
    this.tableSchema = tableSchema;
    this.required = required;
    this.filters = filters;
    this.limit = limit;
  }

  /** The read options, for a stream ({@code scan.mode}, ...). */
  private org.apache.spark.sql.util.CaseInsensitiveStringMap streamOptions =
      org.apache.spark.sql.util.CaseInsensitiveStringMap.empty();

  void streamOptions(org.apache.spark.sql.util.CaseInsensitiveStringMap options) {
    this.streamOptions = options;
  }

  @Override
  public org.apache.spark.sql.connector.read.streaming.MicroBatchStream toMicroBatchStream(String checkpointLocation) {
    return new SnapshotMicroBatchStream(table, tableSchema, streamOptions, false);
  }

  /** Reads only the files that need no merge ({@code t$ro}, see {@link ScanPlanner#readOptimized}). */
  private boolean readOptimized;

  void readOptimized(boolean on) {
    if (plan != null) throw new IllegalStateException("The scan of " + table.fullName() + " is planned already");
    this.readOptimized = on;
  }

  /** Reads this snapshot instead of the latest one; only before the scan is planned. */
  void atSnapshot(Snapshot snapshot) {
    if (plan != null) throw new IllegalStateException("The scan of " + table.fullName() + " is planned already");
    this.pinned = snapshot;
  }

  /** The layout reported to Spark, when asked for and correct (plain scans only); decided once. */
  private StoragePartitioning layout;
  private boolean layoutDecided;

  private synchronized StoragePartitioning layout() {
    if (!layoutDecided) {
      layoutDecided = true;
      layout = getClass() == LagoonScan.class && !perBucketAsked && metadata.isEmpty() ? StoragePartitioning.of(table)
          : null;
    }
    return layout;
  }

  @Override
  public Partitioning outputPartitioning() {
    StoragePartitioning l = layout();
    if (l == null) return new UnknownPartitioning(0);
    return new KeyGroupedPartitioning(l.expressions(), planInputPartitions().length);
  }

  private synchronized ScanPlan plan() {
    if (plan == null) {
      try {
        Optional<Snapshot> s = pinned == null ? table.snapshots().latest() : Optional.of(pinned);
        if (s.isPresent()) vectors = DeletionVectorIndex.forRead(table, s.get());
        plan = s.isPresent()
            ? new ScanPlanner(table).readOptimized(readOptimized).plan(s.get(), filters)
            : new ScanPlan(null, List.of(), 0, 0, 0);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot plan scan of " + table.fullName() + ": " + e.getMessage(), e);
      }
    }
    return plan;
  }

  @Override
  public StructType readSchema() {
    StructType out = required;
    for (org.apache.spark.sql.connector.catalog.MetadataColumn m : MetadataColumns.all(tableSchema, true)) {
      if (metadata.contains(m.name())) out = out.add(m.name(), m.dataType(), false);
    }
    return out;
  }

  @Override
  public String description() {
    StringBuilder uses = new StringBuilder();
    for (Map.Entry<String, List<org.apache.spark.sql.sources.Filter>> e
        : io.lagoon.core.scan.FilterUse.of(table.schema(), filters).entrySet()) {
      uses.append(' ').append(e.getKey()).append('=').append(e.getValue());
    }
    return "LagoonScan " + table.fullName() + " filters=" + filters + uses + (limit == null ? "" : " limit=" + limit);
  }

  @Override
  public Batch toBatch() {
    SnapshotMicroBatchStream.refuseConsumerOnBatch(table.fullName(), streamOptions);
    return this;
  }

  private InputPartition[] partitions;

  /** Sections and input partitions of a primary-key table, planned once. */
  private synchronized PkPartitions pkPartitions() {
    if (pkPartitions == null) {
      SQLConf conf = SQLConf.get();
      ScanPlan p = plan();
      if (keptKeyRanges != null) {
        List<DataSplit> splits = new ArrayList<>();
        for (DataSplit split : p.splits) {
          List<DataFileMeta> files = new ArrayList<>();
          for (DataFileMeta f : split.files) if (keptKeyRanges.test(f)) files.add(f);
          if (!files.isEmpty()) splits.add(new DataSplit(split.partition, split.bucket, split.bucketPath, files));
        }
        p = p.withSplits(splits);
      }
      long maxBytes = SplitSize.of(p, conf);
      // Decided once, on the plan before runtime filters (which only drop files).
      if (perBucket == null) perBucket = perBucketAsked && PkPartitions.canPlanPerBucket(table, p, maxBytes);
      pkPartitions = perBucket ? PkPartitions.perBucket(table, p)
          : PkPartitions.plan(table, p, vectors, maxBytes, conf.filesOpenCostInBytes(), layout());
    }
    return pkPartitions;
  }

  private boolean perBucketAsked;
  /** Whether the scan is planned one task per bucket; decided when first planned. */
  private Boolean perBucket;

  /**
   * Asks for one task per bucket of a primary-key table, each merging the whole bucket: a
   * row-level statement that keeps every row in its bucket can then write each task's rows without
   * a shuffle. Granted where the table allows it and no bucket is much larger than a split (a
   * larger one would lose the parallel read of its sections); see {@link #bucketAligned}.
   */
  public synchronized void planPerBucket() {
    if (pkPartitions != null) throw new IllegalStateException("Already planned");
    perBucketAsked = true;
  }

  /**
   * Whether every task reads exactly the rows of one bucket of one partition, and no two tasks
   * read the same bucket (plans the scan if not planned yet).
   */
  public synchronized boolean bucketAligned() {
    if (!perBucketAsked || !table.hasPrimaryKey()) return false;
    pkPartitions();
    return perBucket;
  }

  /** Whether every planned file range is a whole file (so positions can be counted, see DataFileReader). */
  private boolean wholeFilesOnly() {
    for (InputPartition p : planInputPartitions()) {
      if (!(p instanceof LagoonInputPartition)) continue;
      for (LagoonInputPartition.FileRange r : ((LagoonInputPartition) p).files()) {
        if (r.start != 0 || r.length < r.fileSize) return false;
      }
    }
    return true;
  }

  @Override
  public synchronized InputPartition[] planInputPartitions() {
    if (partitions == null) partitions = computePartitions();
    return partitions;
  }

  private InputPartition[] computePartitions() {
    // A primary-key table's row count includes shadowed and retracted records, so a limit
    // cannot stop planning early there.
    if (table.hasPrimaryKey()) return pkPartitions().partitions;
    ScanPlan p = plan();
    SQLConf conf = SQLConf.get();
    long maxBytes = SplitSize.of(p, conf);
    long openCost = conf.filesOpenCostInBytes();
    List<LagoonInputPartition.FileRange> ranges = new ArrayList<>();
    StoragePartitioning keyed = layout();
    List<InputPartition> keyedPartitions = new ArrayList<>();
    long rowsPlanned = 0;
    outer:
    for (DataSplit split : p.splits) {
      for (DataFileMeta f : split.files) {
        String path = path(split, f);
        if (!kept(path, f)) continue;
        for (long start = 0; start < f.fileSize; start += maxBytes) {
          ranges.add(new LagoonInputPartition.FileRange(path, start, Math.min(maxBytes, f.fileSize - start), f.fileSize,
              vectors.refOf(f.fileName), p.rowSelections.get(f.fileName), f.rowCount, f.schemaId));
        }
        rowsPlanned += f.rowCount;
        // Without filters every row counts toward the limit, so later files are not needed; a
        // deletion vector makes a file's row count too high, so then every file is read.
        if (keyed == null && limit != null && filters.isEmpty() && vectors.isEmpty() && rowsPlanned >= limit) break outer;
      }
      if (keyed != null) {
        // Each (partition, bucket) packed on its own, its tasks keyed by it.
        InternalRow key = keyed.key(split);
        for (LagoonInputPartition part : FilePacking.pack(ranges, maxBytes, openCost)) keyedPartitions.add(part.withKey(key));
        ranges.clear();
      }
    }
    if (keyed != null) return keyedPartitions.toArray(new InputPartition[0]);
    return FilePacking.pack(ranges, maxBytes, openCost);
  }

  /** Built once: Spark asks every copy of the scan's plan node, and each build broadcasts. */
  private PartitionReaderFactory readerFactory;

  /**
   * Whether a runtime filter may later drop files of this scan's merged sections, leaving files
   * that are read raw (so the raw readers must exist even when the plan has no raw section yet).
   */
  boolean mayDropFilesAtRunTime() {
    return false;
  }

  @Override
  public synchronized PartitionReaderFactory createReaderFactory() {
    if (readerFactory == null) readerFactory = buildReaderFactory();
    return readerFactory;
  }

  private PartitionReaderFactory buildReaderFactory() {
    SparkSession spark = SparkSession.active();
    boolean merging = table.hasPrimaryKey() && pkPartitions().anyMerge();
    // Columnar whenever the columns allow: merged sections become batches too (see MergedBatchReader).
    boolean batch = DataFileReader.supportsBatch(spark, required);
    java.util.Set<String> formats = new java.util.HashSet<>();
    for (DataSplit split : plan().splits) {
      for (DataFileMeta f : split.files) {
        String format = DataFileReader.formatOf(f.fileName);
        if (format != null) formats.add(format);
      }
    }
    if (formats.contains("avro")) {
      throw new UnsupportedOperationException("Table " + table.fullName() + " has Avro data files ('file.format'='avro'), "
          + "which Lagoon scans do not read yet; they read Parquet and ORC");
    }
    boolean rowBefore = metadata.contains(MetadataColumns.ROW_BEFORE);
    if (merging && metadata.size() > (rowBefore ? 1 : 0)) {
      throw new UnsupportedOperationException("Metadata columns " + metadata + " are not available on " + table.fullName()
          + ": its rows are merged from several files (compact it fully, or use deletion vectors, to read files as they are)");
    }
    // Each reader below broadcasts the configuration per format: build only those the scan uses.
    // The factory is built before runtime filters apply (Spark asks for it while planning).
    boolean rawFiles = !merging || pkPartitions().sectionsRaw > 0 || mayDropFilesAtRunTime() && !bucketAligned();
    // Own copy of the configuration: Spark's Parquet reader writes its read schema into it.
    DataFileReader reader = DataFileReader.build(spark, tableSchema, required, wholeFileRewrite ? List.of() : filters,
        new org.apache.hadoop.conf.Configuration(table.io().hadoopConf()), batch,
        rawFiles ? formats : java.util.Set.of(),
        !vectors.isEmpty() || metadata.contains(MetadataColumns.POS) || !plan().rowSelections.isEmpty(),
        metadata.contains(MetadataColumns.FILE), metadata.contains(MetadataColumns.POS), wholeFilesOnly());
    if (!plan().rowSelections.isEmpty()) reader.skipRowGroups(spark, table.io().hadoopConf());
    java.util.Set<Long> schemaIds = new java.util.HashSet<>();
    for (DataSplit split : plan().splits) for (DataFileMeta f : split.files) schemaIds.add(f.schemaId);
    try {
      reader.withOlderSchemas(schemaIds, table.schema().id(), table.schema().fields(), id -> table.schema(id).fields(),
          "table " + table.fullName());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("Cannot read the schemas of " + table.fullName() + ": " + e.getMessage(), e);
    }
    if (!plan().rowSelections.isEmpty()) reader.countSelectedPositions();
    MergeReadContext merge = null;
    if (merging) {
      List<List<io.lagoon.core.mergetree.Section>> sections = new ArrayList<>();
      for (InputPartition p : pkPartitions().partitions) {
        if (p instanceof MergeInputPartition) sections.add(((MergeInputPartition) p).sections());
      }
      // Runtime filters only drop files, so a section that fits the columnar merge keeps fitting.
      merge = MergeReadContext.build(spark, table, required, formats, batch, sections);
    }
    FileMatchProbe probe = merging ? null : fileProbe(spark, formats, schemaIds);
    PartitionReaderFactory files = vectors.isEmpty() ? new LagoonReaderFactory(reader, merge, null, null, null, probe)
        : new LagoonReaderFactory(reader, merge, table.io(), table.dir().toString(), table.fullName(), probe);
    return rowBefore ? new RowBeforeReaderFactory(files, tableSchema) : files;
  }

  /**
   * A check each task runs on a file before reading it, leaving out files it proves hold no
   * matching row ({@link InTaskRewriteScan}); null for none.
   */
  FileMatchProbe fileProbe(SparkSession spark, java.util.Set<String> formats, java.util.Set<Long> schemaIds) {
    return null;
  }

  /** Whether the tasks left out this file (see {@link #fileProbe}); asked after they ended. */
  boolean leftOutInTasks(String path) {
    return false;
  }

  /**
   * Keeps only the files {@code keep} accepts (a runtime filter by key or value range), on top of
   * any kept before. On a primary-key table a file whose key range holds none of the keys looked
   * for holds no record of them, and the others are still merged together.
   */
  synchronized void keepKeyRanges(java.util.function.Predicate<DataFileMeta> keep) {
    java.util.function.Predicate<DataFileMeta> before = keptKeyRanges;
    keptKeyRanges = before == null ? keep : f -> before.test(f) && keep.test(f);
    pkPartitions = null;
    partitions = null;
  }

  private String path(DataSplit split, DataFileMeta f) {
    return new Path(table.dir(), split.bucketPath + "/" + f.fileName).toString();
  }

  /** Whether the runtime filters (by file path, by key range) keep a planned file. */
  private boolean kept(String path, DataFileMeta f) {
    return (keptFiles == null || keptFiles.contains(path)) && (keptKeyRanges == null || keptKeyRanges.test(f));
  }

  /** How many data files the scan reads, after runtime filters. */
  public synchronized int filesToRead() {
    int n = 0;
    for (DataSplit split : plan().splits) {
      for (DataFileMeta f : split.files) {
        if (kept(path(split, f), f)) n++;
      }
    }
    return n;
  }

  /** The paths of every file the scan planned, before runtime filters. */
  synchronized java.util.Set<String> plannedFiles() {
    java.util.Set<String> out = new java.util.HashSet<>();
    for (DataSplit split : plan().splits) for (DataFileMeta f : split.files) out.add(path(split, f));
    return out;
  }

  FileStoreTable table() {
    return table;
  }

  /** Every column of the table, as Spark sees them. */
  StructType tableColumns() {
    return tableSchema;
  }

  /** The filters pushed to this scan. */
  List<Filter> filterList() {
    return filters;
  }

  /** Keeps only the files with these paths (a runtime filter of a copy-on-write rewrite). */
  synchronized void keepFiles(java.util.Set<String> paths) {
    if (table.hasPrimaryKey()) throw new IllegalStateException("Primary-key tables are not rewritten by file");
    keptFiles = paths;
    partitions = null;
  }

  /** The live entries of the files this scan reads (after any runtime filter), as of its snapshot. */
  public synchronized List<io.lagoon.core.manifest.ManifestEntry> filesRead() {
    List<io.lagoon.core.manifest.ManifestEntry> out = new ArrayList<>();
    ScanPlan p = plan();
    for (DataSplit split : p.splits) {
      for (DataFileMeta f : split.files) {
        if (!kept(path(split, f), f) || leftOutInTasks(path(split, f))) continue;
        out.add(new io.lagoon.core.manifest.ManifestEntry(io.lagoon.core.manifest.FileKind.ADD, split.partition,
            split.bucket, table.options().bucket() > 0 ? table.options().bucket() : -1, f));
      }
    }
    return out;
  }

  /** The snapshot the scan reads, or empty for a table without snapshots. */
  public Optional<Snapshot> snapshot() {
    return Optional.ofNullable(plan().snapshot);
  }

  @Override
  public Statistics estimateStatistics() {
    ScanPlan p = plan();
    long rows = p.rowCount();
    double ratio = Math.max(1, required.defaultSize()) / (double) Math.max(1, tableSchema.defaultSize());
    long size = (long) Math.max(1, p.sizeInBytes() * Math.min(1.0, ratio));
    return new Statistics() {
      @Override public OptionalLong sizeInBytes() { return OptionalLong.of(size); }
      @Override public OptionalLong numRows() { return OptionalLong.of(rows); }
    };
  }

  @Override
  public CustomMetric[] supportedCustomMetrics() {
    return ScanMetrics.supported();
  }

  @Override
  public CustomTaskMetric[] reportDriverMetrics() {
    ScanPlan p = plan();
    long hidden = table.hasPrimaryKey() ? pkPartitions().level0Hidden : 0;
    long read = filesToRead(); // after runtime filters
    return new CustomTaskMetric[] {
        ScanMetrics.value(ScanMetrics.FILES_SCANNED, read - hidden),
        ScanMetrics.value(ScanMetrics.FILES_SKIPPED, p.filesSkipped + (p.filesScanned - read) + hidden),
        ScanMetrics.value(ScanMetrics.MANIFESTS_SKIPPED, p.manifestsSkipped),
        ScanMetrics.value(ScanMetrics.FILES_SKIPPED_BY_PARTITION, p.filesSkippedByPartition),
        ScanMetrics.value(ScanMetrics.FILES_SKIPPED_BY_STATS, p.filesSkippedByStats),
        ScanMetrics.value(ScanMetrics.FILES_SKIPPED_BY_KEY_RANGE, p.filesSkippedByKeyRange),
        ScanMetrics.value(ScanMetrics.FILES_SKIPPED_BY_INDEX, p.filesSkippedByIndex),
        ScanMetrics.value(ScanMetrics.FILES_SKIPPED_AT_RUN_TIME, p.filesScanned - read),
        ScanMetrics.value(ScanMetrics.ROWS_SKIPPED_BY_INDEX, p.rowsSkippedByIndex()),
        ScanMetrics.value(ScanMetrics.SECTIONS_MERGED, table.hasPrimaryKey() ? pkPartitions().sectionsMerged : 0)};
  }
}
