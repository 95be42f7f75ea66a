package io.lagoon.core.scan;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.fileindex.FileIndexPredicate;
import io.lagoon.core.fileindex.FileIndexes;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.ManifestFileMeta;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.DataFilePaths;
import io.lagoon.core.types.DataField;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.sources.Filter;

/**
 * Plans a scan of one snapshot: replays its manifests, prunes manifests and partitions with the
 * partition filters and files with their min/max/null-count stats, and groups the survivors into
 * one split per (partition, bucket). Files still waiting in {@code bucket-postpone} are not read.
 */
public final class ScanPlanner {
  /** Separate index files read at once while planning. */
  private static final int INDEX_READ_THREADS = 8;

  private final FileStoreTable table;

  public ScanPlanner(FileStoreTable table) {
    this.table = table;
  }

  /** Whether to plan only the files a read-optimized read takes ({@code t$ro}). */
  private boolean readOptimized;

  /**
   * Plans only the files of a primary-key table that need no merge, as Paimon's read-optimized
   * table ({@code t$ro}) does: the top level; with deletion vectors, every level but 0 (their
   * files hold each key once, deletions applied). Rows still waiting in lower levels are not seen.
   */
  public ScanPlanner readOptimized(boolean on) {
    this.readOptimized = on;
    return this;
  }

  private boolean skippedByReadOptimized(DataFileMeta f) {
    if (!readOptimized || !table.hasPrimaryKey()) return false;
    if (table.options().deletionVectors()) return f.level == 0;
    return f.level != table.options().numLevels() - 1;
  }

  public ScanPlan plan(Snapshot snapshot, List<Filter> filters) throws IOException {
    TableSchema schema = table.schema();
    List<DataField> partFields = schema.partitionFields();
    Set<String> partNames = new HashSet<>(schema.partitionKeys());
    List<Filter> partFilters = new ArrayList<>();
    List<Filter> valueFilters = new ArrayList<>();
    for (Filter f : filters) {
      if (!partNames.isEmpty() && partNames.containsAll(Arrays.asList(f.references()))) partFilters.add(f);
      else valueFilters.add(f);
    }

    DataFilePaths paths = table.paths();
    long[] manifestsSkipped = {0};
    Collection<ManifestEntry> live = LiveFiles.read(table.manifests(), snapshot, m -> {
      boolean keep = manifestMayMatch(m, partFields, partFilters);
      if (!keep) manifestsSkipped[0]++;
      return keep;
    });

    Map<String, List<DataFileMeta>> groups = new LinkedHashMap<>();
    Map<String, ManifestEntry> firstOfGroup = new LinkedHashMap<>();
    Map<String, Boolean> partitionMatch = new LinkedHashMap<>();
    long scanned = 0;
    long skipped = 0;
    long skippedByIndex = 0;
    long skippedByPartition = 0;
    long skippedByStats = 0;
    long skippedByKeyRange = 0;
    IndexRule rule = indexRule(valueFilters);
    // Files whose indexes prove no row matches the value filters, where only a whole key section
    // of such files may be dropped (primary-key tables merged on read).
    Set<DataFileMeta> provenEmpty = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    Map<String, org.roaringbitmap.RoaringBitmap> rowSelections = new HashMap<>();
    List<ManifestEntry> survivors = new ArrayList<>();
    for (ManifestEntry e : live) {
      // Rows of a postponed-bucket table wait in bucket-postpone until a compaction gives them a
      // bucket; Paimon's readers do not see them before that, so neither does a scan.
      if (e.bucket == DataFilePaths.POSTPONE_BUCKET || skippedByReadOptimized(e.file)) continue;
      String partKey = Arrays.toString(e.partition);
      Boolean pm = partitionMatch.get(partKey);
      if (pm == null) {
        pm = partitionMayMatch(e.partition, partFields, partFilters);
        partitionMatch.put(partKey, pm);
      }
      if (!pm) {
        skipped++;
        skippedByPartition++;
        continue;
      }
      if (!fileMayMatch(e.file, valueFilters)) {
        skipped++;
        // A primary-key file prunes by its key stats alone: the range of keys it holds.
        if (table.hasPrimaryKey()) skippedByKeyRange++;
        else skippedByStats++;
        continue;
      }
      survivors.add(e);
    }
    Map<ManifestEntry, FileIndexPredicate> indexes = rule == null ? Map.of() : indexPredicates(survivors);
    for (ManifestEntry e : survivors) {
      String partKey = Arrays.toString(e.partition);
      FileIndexPredicate index = indexes.get(e);
      if (index != null && !allMayMatch(index, rule.perFile)) {
        skipped++;
        skippedByIndex++;
        continue;
      }
      if (index != null && rule.perSection && !allMayMatch(index, valueFilters)) provenEmpty.add(e.file);
      if (index != null && !table.hasPrimaryKey()) {
        // Leaving rows out makes the reader produce row positions: worth it when most rows go.
        org.roaringbitmap.RoaringBitmap kept = candidateRows(index, valueFilters);
        if (kept != null && kept.getLongCardinality() <= e.file.rowCount / 2) rowSelections.put(e.file.fileName, kept);
      }
      scanned++;
      String key = partKey + "/" + e.bucket;
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(e.file);
      firstOfGroup.putIfAbsent(key, e);
    }
    if (!provenEmpty.isEmpty()) {
      List<io.lagoon.core.types.PaimonType> keyTypes = new io.lagoon.core.mergetree.KeyValueLayout(schema).keyTypes();
      for (List<DataFileMeta> files : groups.values()) {
        for (io.lagoon.core.mergetree.Section section : io.lagoon.core.mergetree.KeySections.split(files, keyTypes)) {
          List<DataFileMeta> all = new ArrayList<>();
          for (List<DataFileMeta> run : section.runs()) all.addAll(run);
          if (!provenEmpty.containsAll(all)) continue;
          files.removeAll(all);
          scanned -= all.size();
          skipped += all.size();
          skippedByIndex += all.size();
        }
      }
      groups.values().removeIf(List::isEmpty);
    }
    List<DataSplit> splits = new ArrayList<>();
    for (Map.Entry<String, List<DataFileMeta>> g : groups.entrySet()) {
      ManifestEntry e = firstOfGroup.get(g.getKey());
      splits.add(new DataSplit(e.partition, e.bucket, paths.bucketPath(e.partition, e.bucket), g.getValue()));
    }
    return new ScanPlan(snapshot, splits, scanned, skipped, manifestsSkipped[0], skippedByPartition, skippedByStats,
        skippedByKeyRange, skippedByIndex, rowSelections);
  }

  /** Whether a manifest's partition stats admit the filters on partition columns. */
  public static boolean manifestMayMatch(ManifestFileMeta m, List<DataField> partFields, List<Filter> partFilters) {
    if (partFilters.isEmpty()) return true;
    StatsRows stats = new StatsRows(m.partitionStats, StatsRows.types(partFields), Long.MAX_VALUE);
    return allMayMatch(partFilters, stats, partFields);
  }

  /** Whether a partition (its serialized row) satisfies the filters on partition columns. */
  public static boolean partitionMayMatch(byte[] partition, List<DataField> partFields, List<Filter> partFilters) {
    if (partFilters.isEmpty()) return true;
    InternalRow row = BinaryRows.deserialize(partition, StatsRows.types(partFields));
    return allMayMatch(partFilters, new ExactRowStats(row, partFields), partFields);
  }

  private boolean fileMayMatch(DataFileMeta f, List<Filter> valueFilters) throws IOException {
    if (valueFilters.isEmpty()) return true;
    if (table.hasPrimaryKey()) return keysMayMatch(f, valueFilters);
    TableSchema fileSchema = table.schema(f.schemaId);
    // Stats are positional over the file's schema, or over _VALUE_STATS_COLS when the writer
    // listed the columns it kept stats for (Paimon 1.x leaves nested columns out).
    // Current names map to those positions by field id.
    List<DataField> current = table.schema().fields();
    List<DataField> fileFields = statsFields(fileSchema, f.valueStatsCols);
    List<DataField> fields = new ArrayList<>(fileFields);
    StatsRows stats = new StatsRows(f.valueStats, StatsRows.types(fileFields), f.rowCount);
    for (Filter filter : valueFilters) {
      boolean may = StatsPredicate.mayMatch(filter, stats, name -> {
        int ci = indexOf(current, name);
        if (ci < 0) return -1;
        int id = current.get(ci).id();
        for (int i = 0; i < fileFields.size(); i++) {
          if (fileFields.get(i).id() == id && fileFields.get(i).type().root() == current.get(ci).type().root()) return i;
        }
        return -1;
      }, fields);
      if (!may) return false;
    }
    return true;
  }

  /**
   * Which filters a file's indexes may decide, and how (null: none). An index describes the
   * records of its file, so on an append table, and on a primary-key table with deletion vectors
   * (whose files' live rows are the table's rows: no merge on read), any filter the index rules
   * out drops the file. On other primary-key tables a file's records merge with other files':
   * a filter on key columns only drops a file alone (a key's rows come only from files holding
   * it); a filter on other columns drops only a whole key section, every file of which is ruled
   * out, and only under merge engines whose merged row is one of its records (deduplicate,
   * first-row; partial-update and aggregation combine records into rows no file holds).
   */
  private IndexRule indexRule(List<Filter> valueFilters) {
    if (valueFilters.isEmpty()) return null;
    if (!table.hasPrimaryKey() || table.options().deletionVectors()) return new IndexRule(valueFilters, false);
    Set<String> keys = new HashSet<>(table.schema().primaryKeys());
    List<Filter> keyOnly = new ArrayList<>();
    for (Filter f : valueFilters) if (keys.containsAll(Arrays.asList(f.references()))) keyOnly.add(f);
    boolean sections = keyOnly.size() < valueFilters.size() && !indexesDecideKeysOnly(table.schema());
    return keyOnly.isEmpty() && !sections ? null : new IndexRule(keyOnly, sections);
  }

  /**
   * Whether file indexes may decide only filters on key columns: primary-key tables without
   * deletion vectors whose merge engine combines records into rows no file holds.
   */
  public static boolean indexesDecideKeysOnly(TableSchema schema) {
    if (schema.primaryKeys().isEmpty() || new io.lagoon.core.table.TableOptions(schema.options()).deletionVectors()) {
      return false;
    }
    io.lagoon.core.mergetree.engine.MergeEngine engine =
        new io.lagoon.core.mergetree.engine.MergeOptions(schema.options()).engine();
    return engine != io.lagoon.core.mergetree.engine.MergeEngine.DEDUPLICATE
        && engine != io.lagoon.core.mergetree.engine.MergeEngine.FIRST_ROW;
  }

  /** Filters a file's indexes decide alone, and whether the others decide whole key sections. */
  private record IndexRule(List<Filter> perFile, boolean perSection) {
  }

  /**
   * The indexes of the files that have any, by entry. Separate index files are read in parallel:
   * each is a small read whose latency (an object store's above all) would otherwise add up on
   * the driver, file after file.
   */
  private Map<ManifestEntry, FileIndexPredicate> indexPredicates(List<ManifestEntry> entries) throws IOException {
    Map<ManifestEntry, FileIndexPredicate> out = new java.util.IdentityHashMap<>();
    List<ManifestEntry> separate = new ArrayList<>();
    for (ManifestEntry e : entries) {
      if (!FileIndexes.present(e.file)) continue;
      if (e.file.embeddedIndex != null) out.put(e, indexPredicate(e));
      else separate.add(e);
    }
    if (separate.size() < 2) {
      for (ManifestEntry e : separate) out.put(e, indexPredicate(e));
      return out;
    }
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
        Math.min(INDEX_READ_THREADS, separate.size()), r -> {
          Thread t = new Thread(r, "lagoon-index-read");
          t.setDaemon(true);
          return t;
        });
    try {
      List<java.util.concurrent.Future<FileIndexPredicate>> reads = new ArrayList<>();
      for (ManifestEntry e : separate) reads.add(pool.submit(() -> indexPredicate(e)));
      for (int i = 0; i < separate.size(); i++) out.put(separate.get(i), reads.get(i).get());
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("Interrupted while reading file indexes");
    } catch (java.util.concurrent.ExecutionException ex) {
      if (ex.getCause() instanceof IOException io) throw io;
      if (ex.getCause() instanceof RuntimeException re) throw re;
      throw new IOException(ex.getCause());
    } finally {
      pool.shutdownNow();
    }
    return out;
  }

  /**
   * The file's indexes as a predicate (Bloom filters and bitmaps, {@link FileIndexPredicate}),
   * null when it has none that can be read. Columns map to the file's by field id (an index names
   * the column as the file's schema did).
   */
  private FileIndexPredicate indexPredicate(ManifestEntry e) throws IOException {
    if (!FileIndexes.present(e.file)) return null;
    Map<String, Map<String, io.lagoon.index.FileIndexFile.Body>> indexes =
        FileIndexes.read(table, table.paths().dataFile(e).getParent(), e.file);
    if (indexes == null) return null;
    List<DataField> current = table.schema().fields();
    TableSchema fileSchema = table.schema(e.file.schemaId);
    return new FileIndexPredicate(indexes, name -> {
      int ci = indexOf(current, name);
      if (ci < 0) return null;
      for (DataField f : fileSchema.fields()) {
        if (f.id() == current.get(ci).id() && f.type().root() == current.get(ci).type().root()) return f;
      }
      return null;
    });
  }

  /** The rows every filter may match by the file's bitmap and bit-sliced indexes; null when they cannot tell. */
  private static org.roaringbitmap.RoaringBitmap candidateRows(FileIndexPredicate index, List<Filter> filters) {
    org.roaringbitmap.RoaringBitmap out = null;
    for (Filter f : filters) {
      org.roaringbitmap.RoaringBitmap rows = index.candidateRows(f);
      if (rows != null) out = out == null ? rows.clone() : org.roaringbitmap.RoaringBitmap.and(out, rows);
    }
    return out;
  }

  private static boolean allMayMatch(FileIndexPredicate index, List<Filter> filters) {
    for (Filter f : filters) if (!index.mayMatch(f)) return false;
    return true;
  }

  /**
   * Primary-key files prune by their key stats only. A file's value stats describe records that a
   * newer file may shadow (or a retraction remove), so a value filter proves nothing about the
   * merged rows; a filter that no key of the file can satisfy does, as the file's records only
   * make rows for its own keys. Non-key columns count as unknown, so {@code key = 1 OR v = 2}
   * never prunes.
   */
  private boolean keysMayMatch(DataFileMeta f, List<Filter> filters) throws IOException {
    TableSchema fileSchema = table.schema(f.schemaId);
    List<DataField> fileKeys = new ArrayList<>();
    for (String k : fileSchema.trimmedPrimaryKeys()) fileKeys.add(fileSchema.field(k));
    List<DataField> current = table.schema().fields();
    StatsRows stats = new StatsRows(f.keyStats, StatsRows.types(fileKeys), f.rowCount);
    for (Filter filter : filters) {
      boolean may = StatsPredicate.mayMatch(filter, stats, name -> {
        int ci = indexOf(current, name);
        if (ci < 0) return -1;
        for (int i = 0; i < fileKeys.size(); i++) {
          if (fileKeys.get(i).id() == current.get(ci).id()
              && fileKeys.get(i).type().root() == current.get(ci).type().root()) return i;
        }
        return -1;
      }, fileKeys);
      if (!may) return false;
    }
    return true;
  }

  /** The columns a file's value stats cover, in stats order. */
  public static List<DataField> statsFields(TableSchema fileSchema, List<String> valueStatsCols) {
    if (valueStatsCols == null) return fileSchema.fields();
    List<DataField> out = new ArrayList<>();
    for (String name : valueStatsCols) {
      int i = fileSchema.fieldIndex(name);
      if (i < 0) throw new IllegalStateException("Value stats name column '" + name + "', absent from schema " + fileSchema.id());
      out.add(fileSchema.fields().get(i));
    }
    return out;
  }

  private static boolean allMayMatch(List<Filter> filters, ColumnStats stats, List<DataField> fields) {
    for (Filter f : filters) {
      if (!StatsPredicate.mayMatch(f, stats, name -> indexOf(fields, name), fields)) return false;
    }
    return true;
  }

  private static int indexOf(List<DataField> fields, String name) {
    for (int i = 0; i < fields.size(); i++) if (fields.get(i).name().equals(name)) return i;
    return -1;
  }
}
