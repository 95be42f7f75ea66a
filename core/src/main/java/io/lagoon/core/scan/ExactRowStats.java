package io.lagoon.core.scan;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.SparkTypes;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * One row seen as stats (min = max = the value, exact), so {@link StatsPredicate} answers
 * exactly for a single partition's values.
 */
public final class ExactRowStats implements ColumnStats {
  private final InternalRow row;
  private final List<DataField> fields;

  public ExactRowStats(InternalRow row, List<DataField> fields) {
    this.row = row;
    this.fields = fields;
  }

  @Override
  public Object min(int c) {
    return row.isNullAt(c) ? null : row.get(c, SparkTypes.toSpark(fields.get(c).type()));
  }

  @Override public Object max(int c) { return min(c); }
  @Override public Long nullCount(int c) { return row.isNullAt(c) ? 1L : 0L; }
  @Override public long rowCount() { return 1; }
  @Override public boolean exact(int c) { return true; }
}
