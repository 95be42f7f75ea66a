package io.lagoon.core.system;

import static io.lagoon.core.system.SystemValues.field;
import static io.lagoon.core.system.SystemValues.str;
import static io.lagoon.core.system.SystemValues.string;

import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;

/** {@code t$options}: the options the latest schema sets (defaults are not listed). */
final class OptionsTable implements SystemTable {
  @Override public String name() { return "options"; }

  @Override
  public List<DataField> fields() {
    return List.of(field(0, "key", string(false)), field(1, "value", string(false)));
  }

  @Override
  public List<InternalRow> rows(FileStoreTable table, io.lagoon.core.snapshot.Snapshot at,
                                List<org.apache.spark.sql.sources.Filter> partitionFilters) {
    List<InternalRow> out = new ArrayList<>();
    for (Map.Entry<String, String> o : table.schema().options().entrySet()) {
      out.add(SystemValues.row(str(o.getKey()), str(o.getValue())));
    }
    return out;
  }
}
