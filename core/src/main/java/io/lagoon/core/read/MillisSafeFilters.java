package io.lagoon.core.read;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;

/**
 * Keeps from Spark's Parquet row-group filtering the filters it gets wrong on millisecond
 * timestamp columns (Paimon's TIMESTAMP(0..3)): Spark floors the bound to millis, so
 * {@code ts < 05.1234} becomes {@code millis < 5123} and skips a group holding 05.123. Only a
 * strict upper bound finer than a millisecond is affected ({@code >=} too, under a NOT); such
 * filters are not pushed. Spark still applies every filter to the rows read.
 */
final class MillisSafeFilters {
  private MillisSafeFilters() {}

  static List<Filter> pushable(List<Filter> filters) {
    List<Filter> out = new ArrayList<>();
    for (Filter f : filters) if (safe(f)) out.add(f);
    return out;
  }

  private static boolean safe(Filter f) {
    if (f instanceof LessThan) return !subMillis(((LessThan) f).value());
    if (f instanceof GreaterThanOrEqual) return !subMillis(((GreaterThanOrEqual) f).value());
    if (f instanceof And) return safe(((And) f).left()) && safe(((And) f).right());
    if (f instanceof Or) return safe(((Or) f).left()) && safe(((Or) f).right());
    if (f instanceof Not) return safe(((Not) f).child());
    return true;
  }

  /** Whether a filter value is a timestamp with a part below a millisecond. */
  static boolean subMillis(Object v) {
    int nanos;
    if (v instanceof java.sql.Timestamp) nanos = ((java.sql.Timestamp) v).getNanos();
    else if (v instanceof Instant) nanos = ((Instant) v).getNano();
    else if (v instanceof LocalDateTime) nanos = ((LocalDateTime) v).getNano();
    else return false;
    return nanos % 1_000_000 != 0;
  }
}
