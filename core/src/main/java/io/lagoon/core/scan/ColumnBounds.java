package io.lagoon.core.scan;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.compact.FileKeys;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.SparkTypes;
import io.lagoon.core.types.TypeRoot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.spark.sql.types.DataType;

/**
 * The range of one column's values in each data file, for pruning files by a set of values known
 * only at run time (the keys of a MERGE source). On a primary-key table it is the first key
 * column, bounded by each file's min and max key; on an append table any column with value
 * stats, found in the file's stats by field id, so files of older schemas are pruned too.
 */
public final class ColumnBounds {
  /** A file's range of the column; {@link #NO_VALUES} when every row is null there. */
  public static final class Range {
    public final Object min;
    public final Object max;

    Range(Object min, Object max) {
      this.min = min;
      this.max = max;
    }
  }

  /** The range of a file where the column is null in every row: no value lies in it. */
  public static final Range NO_VALUES = new Range(null, null);

  private final FileStoreTable table;
  private final DataField field;
  private final DataType sparkType;
  private final FileKeys keys;

  private ColumnBounds(FileStoreTable table, DataField field, FileKeys keys) {
    this.table = table;
    this.field = field;
    this.sparkType = SparkTypes.toSpark(field.type());
    this.keys = keys;
  }

  /**
   * The bounds of {@code column} in the table's files, or null when files cannot be pruned by it:
   * on primary-key tables only the first key column can (a file's other values may be shadowed by
   * newer files); on append tables nested and binary columns have no range stats.
   */
  public static ColumnBounds of(FileStoreTable table, String column) {
    TableSchema schema = table.schema();
    int i = schema.fieldIndex(column);
    if (i < 0) return null;
    DataField field = schema.fields().get(i);
    if (table.hasPrimaryKey()) {
      List<String> keys = schema.trimmedPrimaryKeys();
      return !keys.isEmpty() && keys.get(0).equals(column) ? new ColumnBounds(table, field, FileKeys.of(schema)) : null;
    }
    TypeRoot root = field.type().root();
    // NaN equals NaN in a join but lies outside any stats range: floating columns never prune.
    if (root.isNested() || root.isBinary() || root == TypeRoot.FLOAT || root == TypeRoot.DOUBLE) return null;
    return new ColumnBounds(table, field, null);
  }

  /** The column's Spark type: the type of the values looked for and of the bounds. */
  public DataType type() {
    return sparkType;
  }

  /** The file's range of the column, or null when its metadata does not bound it (keep the file). */
  public Range of(DataFileMeta f) {
    if (keys != null) return new Range(keys.minKey(f).get(0, sparkType), keys.maxKey(f).get(0, sparkType));
    TableSchema fileSchema;
    try {
      fileSchema = table.schema(f.schemaId);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read schema " + f.schemaId + " of " + table.fullName(), e);
    }
    List<DataField> statsFields = ScanPlanner.statsFields(fileSchema, f.valueStatsCols);
    int c = -1;
    for (int i = 0; i < statsFields.size(); i++) {
      DataField s = statsFields.get(i);
      if (s.id() == field.id() && s.type().root() == field.type().root()) c = i;
    }
    if (c < 0) return null; // a column added after the file was written, or retyped
    StatsRows stats = new StatsRows(f.valueStats, StatsRows.types(statsFields), f.rowCount);
    Long nulls = stats.nullCount(c);
    if (nulls != null && nulls >= f.rowCount) return NO_VALUES;
    Object min = stats.min(c);
    Object max = stats.max(c);
    if (min == null || max == null || StatsPredicate.isNaN(min) || StatsPredicate.isNaN(max)) return null;
    return new Range(min, max);
  }
}
