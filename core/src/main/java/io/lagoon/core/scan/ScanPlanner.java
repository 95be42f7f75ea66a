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
  private final FileStoreTable table;

  public ScanPlanner(FileStoreTable table) {
    this.table = table;
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
    for (ManifestEntry e : live) {
      // Rows of a postponed-bucket table wait in bucket-postpone until a compaction gives them a
      // bucket; Paimon's readers do not see them before that, so neither does a scan.
      if (e.bucket == DataFilePaths.POSTPONE_BUCKET) continue;
      String partKey = Arrays.toString(e.partition);
      Boolean pm = partitionMatch.get(partKey);
      if (pm == null) {
        pm = partitionMayMatch(e.partition, partFields, partFilters);
        partitionMatch.put(partKey, pm);
      }
      if (!pm || !fileMayMatch(e.file, valueFilters)) {
        skipped++;
        continue;
      }
      if (!indexesMayMatch(e, valueFilters)) {
        skipped++;
        skippedByIndex++;
        continue;
      }
      scanned++;
      String key = partKey + "/" + e.bucket;
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(e.file);
      firstOfGroup.putIfAbsent(key, e);
    }
    List<DataSplit> splits = new ArrayList<>();
    for (Map.Entry<String, List<DataFileMeta>> g : groups.entrySet()) {
      ManifestEntry e = firstOfGroup.get(g.getKey());
      splits.add(new DataSplit(e.partition, e.bucket, paths.bucketPath(e.partition, e.bucket), g.getValue()));
    }
    return new ScanPlan(snapshot, splits, scanned, skipped, manifestsSkipped[0], skippedByIndex);
  }

  private static boolean manifestMayMatch(ManifestFileMeta m, List<DataField> partFields, List<Filter> partFilters) {
    if (partFilters.isEmpty()) return true;
    StatsRows stats = new StatsRows(m.partitionStats, StatsRows.types(partFields), Long.MAX_VALUE);
    return allMayMatch(partFilters, stats, partFields);
  }

  private static boolean partitionMayMatch(byte[] partition, List<DataField> partFields, List<Filter> partFilters) {
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
   * Whether the file's indexes (Bloom filters, {@link FileIndexPredicate}) admit every filter. Append
   * tables only: a primary-key file's values may be shadowed by newer records, and its keys prune
   * by key stats already. Columns map to the file's by field id (an index names the column as the
   * file's schema did).
   */
  private boolean indexesMayMatch(ManifestEntry e, List<Filter> valueFilters) throws IOException {
    if (valueFilters.isEmpty() || table.hasPrimaryKey() || !FileIndexes.present(e.file)) return true;
    Map<String, Map<String, io.lagoon.index.FileIndexFile.Body>> indexes =
        FileIndexes.read(table, table.paths().dataFile(e).getParent(), e.file);
    if (indexes == null) return true;
    List<DataField> current = table.schema().fields();
    TableSchema fileSchema = table.schema(e.file.schemaId);
    FileIndexPredicate predicate = new FileIndexPredicate(indexes, name -> {
      int ci = indexOf(current, name);
      if (ci < 0) return null;
      for (DataField f : fileSchema.fields()) {
        if (f.id() == current.get(ci).id() && f.type().root() == current.get(ci).type().root()) return f;
      }
      return null;
    });
    for (Filter f : valueFilters) if (!predicate.mayMatch(f)) return false;
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
  static List<DataField> statsFields(TableSchema fileSchema, List<String> valueStatsCols) {
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
