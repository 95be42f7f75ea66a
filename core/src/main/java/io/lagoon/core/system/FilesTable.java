package io.lagoon.core.system;

import static io.lagoon.core.system.SystemValues.bigint;
import static io.lagoon.core.system.SystemValues.field;
import static io.lagoon.core.system.SystemValues.integer;
import static io.lagoon.core.system.SystemValues.str;
import static io.lagoon.core.system.SystemValues.string;
import static io.lagoon.core.system.SystemValues.timestamp;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.read.DataFileReader;
import io.lagoon.core.scan.ScanPlanner;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * {@code t$files}: the live data files of the latest snapshot, with their partition, bucket,
 * level, key range and per-column stats rendered as Paimon renders them.
 */
final class FilesTable implements SystemTable {
  @Override public String name() { return "files"; }

  @Override
  public List<DataField> fields() {
    return List.of(field(0, "partition", string(true)), field(1, "bucket", integer(false)),
        field(2, "file_path", string(false)), field(3, "file_format", string(false)), field(4, "schema_id", bigint(false)),
        field(5, "level", integer(false)), field(6, "record_count", bigint(false)),
        field(7, "file_size_in_bytes", bigint(false)), field(8, "min_key", string(true)), field(9, "max_key", string(true)),
        field(10, "null_value_counts", string(false)), field(11, "min_value_stats", string(false)),
        field(12, "max_value_stats", string(false)), field(13, "min_sequence_number", bigint(true)),
        field(14, "max_sequence_number", bigint(true)), field(15, "creation_time", timestamp(true)),
        field(16, "deleteRowCount", bigint(true)), field(17, "file_source", string(true)));
  }

  @Override
  public List<InternalRow> rows(FileStoreTable table, io.lagoon.core.snapshot.Snapshot at,
                                List<org.apache.spark.sql.sources.Filter> partitionFilters) throws IOException {
    List<InternalRow> out = new ArrayList<>();
    for (ManifestEntry e : LiveEntries.of(table, at, partitionFilters)) {
      DataFileMeta f = e.file;
      TableSchema fileSchema = table.schema(f.schemaId);
      List<PaimonType> keyTypes = new ArrayList<>();
      for (String k : fileSchema.trimmedPrimaryKeys()) keyTypes.add(fileSchema.field(k).type());
      List<DataField> statsFields = ScanPlanner.statsFields(fileSchema, f.valueStatsCols);
      // Paimon lists each column's stats by column name, in name order, values as stored.
      java.util.TreeMap<String, String> nulls = new java.util.TreeMap<>();
      java.util.TreeMap<String, String> mins = new java.util.TreeMap<>();
      java.util.TreeMap<String, String> maxs = new java.util.TreeMap<>();
      List<PaimonType> statsTypes = new ArrayList<>();
      for (DataField d : statsFields) statsTypes.add(d.type());
      InternalRow min = decode(f.valueStats.minValues(), statsTypes);
      InternalRow max = decode(f.valueStats.maxValues(), statsTypes);
      Long[] nullCounts = f.valueStats.nullCounts();
      for (int i = 0; i < statsFields.size(); i++) {
        String name = statsFields.get(i).name();
        nulls.put(name, String.valueOf(nullCounts == null || i >= nullCounts.length ? null : nullCounts[i]));
        mins.put(name, SystemValues.stored(min, i, statsTypes.get(i)));
        maxs.put(name, SystemValues.stored(max, i, statsTypes.get(i)));
      }
      out.add(SystemValues.row(str(LiveEntries.partition(table, e.partition)), e.bucket,
          str(table.paths().dataFile(e).toString()), str(DataFileReader.formatOf(f.fileName)), f.schemaId, f.level,
          f.rowCount, f.fileSize, str(key(f.minKey, keyTypes)), str(key(f.maxKey, keyTypes)),
          str(nulls.toString()), str(mins.toString()), str(maxs.toString()),
          f.minSequenceNumber, f.maxSequenceNumber, SystemValues.wallClockMicros(f.creationTimeMillis), f.deleteRowCount,
          str(f.fileSource == null ? null : f.fileSource == 0 ? "APPEND" : "COMPACT")));
    }
    return out;
  }

  private static InternalRow decode(byte[] bytes, List<PaimonType> types) {
    if (bytes == null || BinaryRows.arity(bytes) == 0) return null;
    List<PaimonType> safe = new ArrayList<>();
    // Columns without range stats (nested, binary) are stored as nulls: decode them as anything.
    for (PaimonType t : types) safe.add(t.root().isNested() || t.root().isBinary() ? SystemValues.bigint(true) : t);
    return BinaryRows.deserialize(bytes, safe);
  }

  /** A key as Paimon renders it: {@code [v1, v2]}. */
  private static String key(byte[] bytes, List<PaimonType> types) {
    if (bytes == null || types.isEmpty() || BinaryRows.arity(bytes) == 0) return null;
    return "[" + String.join(", ", SystemValues.render(BinaryRows.deserialize(bytes, types), types)) + "]";
  }
}
