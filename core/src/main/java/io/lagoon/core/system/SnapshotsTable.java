package io.lagoon.core.system;

import static io.lagoon.core.system.SystemValues.bigint;
import static io.lagoon.core.system.SystemValues.field;
import static io.lagoon.core.system.SystemValues.str;
import static io.lagoon.core.system.SystemValues.string;
import static io.lagoon.core.system.SystemValues.timestamp;

import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.snapshot.SnapshotManager;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/** {@code t$snapshots}: one row per snapshot still on disk, oldest first. */
final class SnapshotsTable implements SystemTable {
  @Override public String name() { return "snapshots"; }

  @Override
  public List<DataField> fields() {
    return List.of(field(0, "snapshot_id", bigint(false)), field(1, "schema_id", bigint(false)),
        field(2, "commit_user", string(false)), field(3, "commit_identifier", bigint(false)),
        field(4, "commit_kind", string(false)), field(5, "commit_time", timestamp(false)),
        field(6, "base_manifest_list", string(false)), field(7, "delta_manifest_list", string(false)),
        field(8, "changelog_manifest_list", string(true)), field(9, "total_record_count", bigint(true)),
        field(10, "delta_record_count", bigint(true)), field(11, "changelog_record_count", bigint(true)),
        field(12, "watermark", bigint(true)));
  }

  @Override
  public List<InternalRow> rows(FileStoreTable table, io.lagoon.core.snapshot.Snapshot at,
                                List<org.apache.spark.sql.sources.Filter> partitionFilters) throws IOException {
    SnapshotManager snapshots = table.snapshots();
    List<InternalRow> out = new ArrayList<>();
    for (long id : snapshots.listIds()) {
      Snapshot s;
      try {
        s = snapshots.snapshot(id);
      } catch (SnapshotManager.SnapshotNotFoundException e) {
        continue; // expired while listing
      }
      out.add(SystemValues.row(s.id, s.schemaId, str(s.commitUser), s.commitIdentifier, str(s.commitKind.name()),
          SystemValues.localMicros(s.timeMillis), str(s.baseManifestList), str(s.deltaManifestList),
          str(s.changelogManifestList), s.totalRecordCount, s.deltaRecordCount, s.changelogRecordCount, s.watermark));
    }
    return out;
  }
}
