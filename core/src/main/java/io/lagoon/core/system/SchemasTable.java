package io.lagoon.core.system;

import static io.lagoon.core.system.SystemValues.bigint;
import static io.lagoon.core.system.SystemValues.field;
import static io.lagoon.core.system.SystemValues.str;
import static io.lagoon.core.system.SystemValues.string;
import static io.lagoon.core.system.SystemValues.timestamp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lagoon.core.schema.SchemaJson;
import io.lagoon.core.schema.SchemaManager;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/** {@code t$schemas}: every schema version, its columns, keys and options as compact JSON. */
final class SchemasTable implements SystemTable {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override public String name() { return "schemas"; }

  @Override
  public List<DataField> fields() {
    return List.of(field(0, "schema_id", bigint(false)), field(1, "fields", string(false)),
        field(2, "partition_keys", string(false)), field(3, "primary_keys", string(false)),
        field(4, "options", string(false)), field(5, "comment", string(true)), field(6, "update_time", timestamp(false)));
  }

  @Override
  public List<InternalRow> rows(FileStoreTable table, io.lagoon.core.snapshot.Snapshot at,
                                List<org.apache.spark.sql.sources.Filter> partitionFilters) throws IOException {
    SchemaManager schemas = table.schemas();
    List<InternalRow> out = new ArrayList<>();
    for (long id : schemas.listIds()) {
      TableSchema s = schemas.schema(id);
      // The schema file's own JSON, compacted: the same fields, keys and options Paimon shows.
      JsonNode n = JSON.readTree(SchemaJson.toJson(s));
      out.add(SystemValues.row(s.id(), str(JSON.writeValueAsString(n.get("fields"))),
          str(JSON.writeValueAsString(n.get("partitionKeys"))), str(JSON.writeValueAsString(n.get("primaryKeys"))),
          str(JSON.writeValueAsString(n.get("options"))), str(s.comment()), SystemValues.localMicros(s.timeMillis())));
    }
    return out;
  }
}
