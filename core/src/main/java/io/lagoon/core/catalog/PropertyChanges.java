package io.lagoon.core.catalog;

import io.lagoon.core.catalog.CatalogException.Kind;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.TableOptions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * ALTER TABLE SET/UNSET TBLPROPERTIES applied to a copy of a schema's options and comment. Keys
 * that fix where rows live on disk (keys, partitions, buckets) cannot change once data may exist.
 */
public final class PropertyChanges {
  private static final Set<String> FIXED = Set.of(TableOptions.PRIMARY_KEY, TableOptions.PARTITION,
      TableOptions.BUCKET, TableOptions.BUCKET_KEY, TableOptions.MERGE_ENGINE, "sequence.field",
      TableOptions.ROWKIND_FIELD);

  private final Identifier table;
  private final TableSchema base;
  private final Map<String, String> options;
  private String comment;

  public PropertyChanges(Identifier table, TableSchema base) {
    this.table = table;
    this.base = base;
    this.options = new LinkedHashMap<>(base.options());
    this.comment = base.comment();
  }

  public PropertyChanges set(String key, String value) {
    if (TableProperties.COMMENT.equals(key)) {
      comment = value;
    } else {
      check(key);
      options.put(key, value);
    }
    return this;
  }

  public PropertyChanges remove(String key) {
    if (TableProperties.COMMENT.equals(key)) {
      comment = null;
    } else {
      check(key);
      options.remove(key);
    }
    return this;
  }

  private void check(String key) {
    if (FIXED.contains(key)) {
      throw new CatalogException(Kind.INVALID, "Table " + table + ": property '" + key
          + "' cannot be changed after the table is created: the table's files were written (and keys merged) by it");
    }
    if (TableProperties.NOT_OPTIONS.contains(key)) {
      throw new CatalogException(Kind.INVALID, "Table " + table + ": property '" + key + "' is reserved");
    }
  }

  public Map<String, String> options() { return options; }
  public String comment() { return comment; }

  /** True when the result equals the base schema: no new schema version is needed. */
  public boolean isNoOp() {
    return options.equals(base.options()) && Objects.equals(comment, base.comment());
  }
}
