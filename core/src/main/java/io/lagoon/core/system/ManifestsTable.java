package io.lagoon.core.system;

import static io.lagoon.core.system.SystemValues.bigint;
import static io.lagoon.core.system.SystemValues.field;
import static io.lagoon.core.system.SystemValues.str;
import static io.lagoon.core.system.SystemValues.string;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.manifest.ManifestFileMeta;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.InternalRow;

/** {@code t$manifests}: the manifest files of the latest snapshot (base and delta lists). */
final class ManifestsTable implements SystemTable {
  @Override public String name() { return "manifests"; }

  @Override
  public List<DataField> fields() {
    return List.of(field(0, "file_name", string(false)), field(1, "file_size", bigint(false)),
        field(2, "num_added_files", bigint(false)), field(3, "num_deleted_files", bigint(false)),
        field(4, "schema_id", bigint(false)), field(5, "min_partition_stats", string(true)),
        field(6, "max_partition_stats", string(true)));
  }

  @Override
  public List<InternalRow> rows(FileStoreTable table, Snapshot at,
                                List<org.apache.spark.sql.sources.Filter> partitionFilters) throws IOException {
    List<InternalRow> out = new ArrayList<>();
    Optional<Snapshot> latest = at != null ? Optional.of(at) : table.snapshots().latest();
    if (latest.isEmpty()) return out;
    List<PaimonType> types = LiveEntries.types(table.schema().partitionFields());
    for (ManifestFileMeta m : LiveFiles.manifests(table.manifests(), latest.get())) {
      out.add(SystemValues.row(str(m.fileName), m.fileSize, m.numAddedFiles, m.numDeletedFiles, m.schemaId,
          str(bound(m.partitionStats.minValues(), types)), str(bound(m.partitionStats.maxValues(), types))));
    }
    return out;
  }

  private static String bound(byte[] bytes, List<PaimonType> types) {
    if (types.isEmpty() || bytes == null || BinaryRows.arity(bytes) == 0) return SystemValues.braces(List.of());
    return SystemValues.braces(SystemValues.render(BinaryRows.deserialize(bytes, types), types));
  }
}
