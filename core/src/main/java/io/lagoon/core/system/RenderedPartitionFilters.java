package io.lagoon.core.system;

import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.types.DataField;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;

/**
 * Filters on a system table's {@code partition} column ({@code '{v1, v2}'}, as Paimon renders a
 * partition) turned into filters on the table's partition columns, so only the manifests and
 * files of that partition are read. Only what parses without doubt is turned: an equality whose
 * parts match the partition columns in number, on string and integer columns; the query still
 * checks every filter on the rows.
 */
public final class RenderedPartitionFilters {
  public static final String COLUMN = "partition";

  private RenderedPartitionFilters() {}

  /** The partition-column filters the given filters imply (possibly none). */
  public static List<Filter> of(TableSchema schema, List<Filter> filters) {
    List<Filter> out = new ArrayList<>();
    List<DataField> keys = schema.partitionFields();
    if (keys.isEmpty()) return out;
    for (Filter f : filters) {
      if (!(f instanceof EqualTo) || !COLUMN.equals(((EqualTo) f).attribute())) continue;
      Object v = ((EqualTo) f).value();
      if (!(v instanceof String)) continue;
      String s = (String) v;
      if (!s.startsWith("{") || !s.endsWith("}")) continue;
      String[] parts = s.substring(1, s.length() - 1).split(", ", -1);
      if (parts.length != keys.size()) continue;
      List<Filter> implied = new ArrayList<>();
      for (int i = 0; i < parts.length; i++) {
        Object typed = typed(keys.get(i), parts[i]);
        if (typed == null) {
          implied = null;
          break;
        }
        implied.add(new EqualTo(keys.get(i).name(), typed));
      }
      if (implied != null) out.addAll(implied);
    }
    return out;
  }

  /** A rendered value as the column's type; null when it cannot be told (then nothing is pruned). */
  private static Object typed(DataField key, String part) {
    if (part.equals("null")) return null;
    try {
      switch (key.type().root()) {
        case CHAR:
        case VARCHAR: return part;
        case TINYINT: return Byte.valueOf(part);
        case SMALLINT: return Short.valueOf(part);
        case INT: return Integer.valueOf(part);
        case BIGINT: return Long.valueOf(part);
        default: return null;
      }
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
