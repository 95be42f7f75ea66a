package io.lagoon.spark.write;

import io.lagoon.core.scan.ColumnStats;
import io.lagoon.core.scan.ExactRowStats;
import io.lagoon.core.scan.StatsPredicate;
import io.lagoon.core.types.DataField;
import java.io.Serializable;
import java.util.List;
import java.util.function.Predicate;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.sources.AlwaysTrue;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;

/**
 * Evaluates overwrite filters on one partition's values. On a single exact row the stats
 * predicate is an exact answer, but only for the filter kinds it understands, so any other kind
 * is refused up front rather than risk deleting too much.
 */
final class PartitionFilters {
  private PartitionFilters() {}

  static boolean exactlyEvaluable(Filter f) {
    if (f instanceof And) return exactlyEvaluable(((And) f).left()) && exactlyEvaluable(((And) f).right());
    if (f instanceof Or) return exactlyEvaluable(((Or) f).left()) && exactlyEvaluable(((Or) f).right());
    if (f instanceof Not) return exactlyEvaluable(((Not) f).child());
    return f instanceof AlwaysTrue || f instanceof EqualTo || f instanceof EqualNullSafe || f instanceof In
        || f instanceof IsNull || f instanceof IsNotNull || f instanceof LessThan || f instanceof LessThanOrEqual
        || f instanceof GreaterThan || f instanceof GreaterThanOrEqual;
  }

  static Predicate<InternalRow> matcher(Filter[] filters, List<DataField> partitionFields) {
    return (Predicate<InternalRow> & Serializable) row -> {
      ColumnStats exact = new ExactRowStats(row, partitionFields);
      for (Filter f : filters) {
        if (f instanceof AlwaysTrue) continue;
        if (!StatsPredicate.mayMatch(f, exact, name -> indexOf(partitionFields, name), partitionFields)) return false;
      }
      return true;
    };
  }

  private static int indexOf(List<DataField> fields, String name) {
    for (int i = 0; i < fields.size(); i++) if (fields.get(i).name().equals(name)) return i;
    return -1;
  }
}
