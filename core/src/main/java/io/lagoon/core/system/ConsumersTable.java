package io.lagoon.core.system;

import static io.lagoon.core.system.SystemValues.bigint;
import static io.lagoon.core.system.SystemValues.field;
import static io.lagoon.core.system.SystemValues.str;
import static io.lagoon.core.system.SystemValues.string;

import io.lagoon.core.snapshot.ConsumerManager;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;

/** {@code t$consumers}: each consumer and the next snapshot it will read. */
final class ConsumersTable implements SystemTable {
  @Override public String name() { return "consumers"; }

  @Override
  public List<DataField> fields() {
    return List.of(field(0, "consumer_id", string(false)), field(1, "next_snapshot_id", bigint(false)));
  }

  @Override
  public List<InternalRow> rows(FileStoreTable table, io.lagoon.core.snapshot.Snapshot at,
                                List<org.apache.spark.sql.sources.Filter> partitionFilters) throws IOException {
    List<InternalRow> out = new ArrayList<>();
    for (Map.Entry<String, Long> c : new ConsumerManager(table.io(), table.metadataDir()).all().entrySet()) {
      out.add(SystemValues.row(str(c.getKey()), c.getValue()));
    }
    return out;
  }
}
