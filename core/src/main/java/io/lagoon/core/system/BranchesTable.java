package io.lagoon.core.system;

import static io.lagoon.core.system.SystemValues.field;
import static io.lagoon.core.system.SystemValues.str;
import static io.lagoon.core.system.SystemValues.string;
import static io.lagoon.core.system.SystemValues.timestamp;

import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;

/** {@code t$branches}: the table's branches (folders {@code branch/branch-<name>}), when each was made. */
final class BranchesTable implements SystemTable {
  private static final String PREFIX = "branch-";

  @Override public String name() { return "branches"; }

  @Override
  public List<DataField> fields() {
    return List.of(field(0, "branch_name", string(false)), field(1, "create_time", timestamp(false)));
  }

  @Override
  public List<InternalRow> rows(FileStoreTable table, io.lagoon.core.snapshot.Snapshot at,
                                List<org.apache.spark.sql.sources.Filter> partitionFilters) throws IOException {
    List<InternalRow> out = new ArrayList<>();
    Path dir = new Path(table.dir(), "branch");
    if (!table.io().exists(dir)) return out;
    for (FileStatus s : table.io().list(dir)) {
      String name = s.getPath().getName();
      if (!s.isDirectory() || !name.startsWith(PREFIX)) continue;
      out.add(SystemValues.row(str(name.substring(PREFIX.length())), SystemValues.localMicros(s.getModificationTime())));
    }
    return out;
  }
}
