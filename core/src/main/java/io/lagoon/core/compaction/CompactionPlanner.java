package io.lagoon.core.compaction;

import io.lagoon.core.deletionvectors.DeletionVectorIndex;
import io.lagoon.core.manifest.BucketId;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.compact.BucketCompactor;
import io.lagoon.core.read.DataFileReader;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.TableOptions;
import io.lagoon.core.types.SparkTypes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.spark.sql.SparkSession;

/**
 * Plans a compaction against one snapshot: one task per primary-key bucket, or per group of an
 * append bucket's files ({@link AppendCompactionPicker}), over the live files the filter selects.
 */
public final class CompactionPlanner {
  private CompactionPlanner() {}

  /** Live files of the snapshot the filter keeps, by bucket. */
  private static Map<BucketId, List<ManifestEntry>> buckets(FileStoreTable table, Snapshot snapshot,
                                                            Predicate<ManifestEntry> filter) throws IOException {
    Map<BucketId, List<ManifestEntry>> out = new LinkedHashMap<>();
    for (ManifestEntry e : LiveFiles.read(table.manifests(), snapshot)) {
      // Postponed rows (bucket -2) wait for a bucket: not compacted in place.
      if (!filter.test(e) || e.bucket < 0 && e.bucket != -1 && table.hasPrimaryKey()) continue;
      out.computeIfAbsent(e.bucketId(), k -> new ArrayList<>()).add(e);
    }
    return out;
  }

  private static List<IndexManifestEntry> index(FileStoreTable table, Snapshot snapshot) throws IOException {
    return table.options().deletionVectors() && snapshot.indexManifest != null
        ? table.manifests().readIndexManifest(snapshot.indexManifest) : List.of();
  }

  public static List<CompactionTask> keyValueTasks(FileStoreTable table, Snapshot snapshot, Predicate<ManifestEntry> filter,
                                                   BucketCompactor.Mode mode, KeyValueSource source) throws IOException {
    List<IndexManifestEntry> index = index(table, snapshot);
    List<CompactionTask> out = new ArrayList<>();
    for (List<ManifestEntry> files : buckets(table, snapshot, filter).values()) {
      ManifestEntry first = files.get(0);
      List<IndexManifestEntry> mine = new ArrayList<>();
      for (IndexManifestEntry e : index) {
        if (e.isDeletionVectors() && e.bucket == first.bucket && java.util.Arrays.equals(e.partition, first.partition)) mine.add(e);
      }
      out.add(new KeyValueCompactionTask(table, files, mine, mode, source));
    }
    return out;
  }

  /**
   * Tasks of an append table: small files and files with deleted rows merged toward
   * {@code target-file-size}, per bucket.
   *
   * @param full every candidate group, rather than only in buckets with {@code compaction.min.file-num} candidates
   */
  public static List<CompactionTask> appendTasks(SparkSession spark, FileStoreTable table, Snapshot snapshot,
                                                 Predicate<ManifestEntry> filter, boolean full) throws IOException {
    TableOptions o = table.options();
    AppendCompactionPicker picker = new AppendCompactionPicker(o.targetFileSize(), o.compactionMinFileNum(),
        o.compactionMaxFileNum(), o.bucket() > 0);
    DeletionVectorIndex vectors = o.deletionVectors() ? DeletionVectorIndex.of(table, snapshot) : DeletionVectorIndex.empty();
    List<List<ManifestEntry>> groups = new ArrayList<>();
    for (List<ManifestEntry> files : buckets(table, snapshot, filter).values()) {
      Set<String> withVectors = new HashSet<>();
      for (ManifestEntry e : files) if (vectors.refOf(e.file.fileName) != null) withVectors.add(e.file.fileName);
      groups.addAll(picker.pick(files, withVectors, full));
    }
    List<CompactionTask> out = new ArrayList<>();
    if (groups.isEmpty()) return out;
    Set<String> formats = new HashSet<>();
    for (List<ManifestEntry> g : groups) for (ManifestEntry e : g) formats.add(DataFileReader.formatOf(e.file.fileName));
    formats.remove(null);
    org.apache.spark.sql.types.StructType schema = SparkTypes.toSpark(table.schema().fields());
    DataFileReader reader = DataFileReader.build(spark, schema, schema, List.of(),
        new org.apache.hadoop.conf.Configuration(table.io().hadoopConf()), false, formats, o.deletionVectors(), false,
        false, true);
    Set<Long> schemaIds = new HashSet<>();
    for (List<ManifestEntry> g : groups) for (ManifestEntry e : g) schemaIds.add(e.file.schemaId);
    reader.withOlderSchemas(schemaIds, table.schema().id(), table.schema().fields(), id -> table.schema(id).fields(),
        "table " + table.fullName());
    for (List<ManifestEntry> g : groups) {
      List<DeletionVectorIndex.Ref> refs = new ArrayList<>();
      for (ManifestEntry e : g) refs.add(vectors.refOf(e.file.fileName));
      out.add(new AppendCompactionTask(table, g, refs, reader));
    }
    return out;
  }

  /**
   * {@code rewrite_file_index}: one task per live data file the filter keeps, each building the
   * file's indexes anew from its rows (no data rewritten). A primary-key file is read for its value
   * columns (the table's, by name), every record included, as its writer indexed them.
   */
  public static List<CompactionTask> fileIndexTasks(SparkSession spark, FileStoreTable table, Snapshot snapshot,
                                                    Predicate<ManifestEntry> filter) throws IOException {
    List<ManifestEntry> files = new ArrayList<>();
    Set<String> formats = new HashSet<>();
    for (ManifestEntry e : LiveFiles.read(table.manifests(), snapshot)) {
      if (!filter.test(e) || e.bucket == io.lagoon.core.table.DataFilePaths.POSTPONE_BUCKET) continue;
      // An index names columns and hashes values as the file's schema has them: files written
      // before a column was renamed or retyped keep the indexes they have.
      if (!sameColumns(table, e.file.schemaId)) continue;
      files.add(e);
      formats.add(DataFileReader.formatOf(e.file.fileName));
    }
    formats.remove(null);
    List<CompactionTask> out = new ArrayList<>();
    if (files.isEmpty()) return out;
    org.apache.spark.sql.types.StructType schema = SparkTypes.toSpark(table.schema().fields());
    DataFileReader reader = DataFileReader.build(spark, schema, schema, List.of(),
        new org.apache.hadoop.conf.Configuration(table.io().hadoopConf()), false, formats);
    for (ManifestEntry e : files) out.add(new io.lagoon.core.fileindex.FileIndexRewriteTask(table, e, reader));
    return out;
  }

  /** Whether files of the schema hold the table's current columns under the same names and types. */
  private static boolean sameColumns(FileStoreTable table, long schemaId) throws IOException {
    if (schemaId == table.schema().id()) return true;
    List<io.lagoon.core.types.DataField> current = table.schema().fields();
    try {
      return io.lagoon.core.read.OlderSchemaColumns.of(SparkTypes.toSpark(current), current,
          table.schema(schemaId).fields(), table.fullName()) == null;
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }
}
