package io.lagoon.core.system;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** The live data files of a table's latest snapshot, and their partitions as Paimon renders them. */
final class LiveEntries {
  private LiveEntries() {}

  /**
   * The live files of the snapshot ({@code at}; null: the latest) in the partitions the filters
   * admit, reading only the manifests that may hold them.
   */
  static Collection<ManifestEntry> of(FileStoreTable table, Snapshot at, List<org.apache.spark.sql.sources.Filter> partitionFilters)
      throws IOException {
    Optional<Snapshot> s = at != null ? Optional.of(at) : table.snapshots().latest();
    if (s.isEmpty()) return List.of();
    if (partitionFilters.isEmpty()) return LiveFiles.read(table.manifests(), s.get());
    List<DataField> keys = table.schema().partitionFields();
    List<ManifestEntry> out = new ArrayList<>();
    for (ManifestEntry e : LiveFiles.read(table.manifests(), s.get(),
        m -> io.lagoon.core.scan.ScanPlanner.manifestMayMatch(m, keys, partitionFilters))) {
      if (io.lagoon.core.scan.ScanPlanner.partitionMayMatch(e.partition, keys, partitionFilters)) out.add(e);
    }
    return out;
  }

  /** {@code {v1, v2}} (in partition-key order); {@code {}} for an unpartitioned table. */
  static String partition(FileStoreTable table, byte[] partition) {
    List<PaimonType> types = types(table.schema().partitionFields());
    if (types.isEmpty()) return SystemValues.braces(List.of());
    return SystemValues.braces(SystemValues.render(BinaryRows.deserialize(partition, types), types));
  }

  static List<PaimonType> types(List<DataField> fields) {
    List<PaimonType> out = new ArrayList<>();
    for (DataField f : fields) out.add(f.type());
    return out;
  }
}
