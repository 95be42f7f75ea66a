package io.lagoon.core.system;

import static io.lagoon.core.system.SystemValues.bigint;
import static io.lagoon.core.system.SystemValues.field;
import static io.lagoon.core.system.SystemValues.str;
import static io.lagoon.core.system.SystemValues.string;
import static io.lagoon.core.system.SystemValues.timestamp;

import io.lagoon.core.snapshot.Tag;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/** {@code t$tags}: every tag, the snapshot it keeps, and its retention where it has one. */
final class TagsTable implements SystemTable {
  @Override public String name() { return "tags"; }

  @Override
  public List<DataField> fields() {
    return List.of(field(0, "tag_name", string(false)), field(1, "snapshot_id", bigint(false)),
        field(2, "schema_id", bigint(false)), field(3, "commit_time", timestamp(false)),
        field(4, "record_count", bigint(true)), field(5, "create_time", timestamp(true)),
        field(6, "time_retained", string(true)));
  }

  @Override
  public List<InternalRow> rows(FileStoreTable table, io.lagoon.core.snapshot.Snapshot at,
                                List<org.apache.spark.sql.sources.Filter> partitionFilters) throws IOException {
    List<InternalRow> out = new ArrayList<>();
    for (Tag t : table.tags().all()) {
      out.add(SystemValues.row(str(t.name), t.snapshot.id, t.snapshot.schemaId,
          SystemValues.localMicros(t.snapshot.timeMillis), t.snapshot.totalRecordCount,
          t.createTime == null ? null : SystemValues.micros(t.createTime), str(t.timeRetained)));
    }
    return out;
  }
}
