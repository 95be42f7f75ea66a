package io.lagoon.core.scan;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.sources.StringStartsWith;
import org.junit.jupiter.api.Test;

/** Which filter shapes min/max stats can ever rule a file out by (what EXPLAIN lists under stats). */
class StatsPredicateDecidesTest {
  private static final Filter EQ = new EqualTo("a", 1);
  private static final Filter UNKNOWN = new StringStartsWith("s", "x");

  @Test
  void andNeedsOneDecidedSideOrNeedsBoth() {
    assertTrue(StatsPredicate.decides(EQ));
    assertFalse(StatsPredicate.decides(UNKNOWN));
    assertTrue(StatsPredicate.decides(new And(EQ, UNKNOWN)));
    assertFalse(StatsPredicate.decides(new Or(EQ, UNKNOWN)));
    assertTrue(StatsPredicate.decides(new Or(EQ, new EqualTo("b", 2))));
  }

  @Test
  void notTurnsAndIntoOr() {
    assertTrue(StatsPredicate.decides(new Not(EQ)));
    assertFalse(StatsPredicate.decides(new Not(new And(EQ, UNKNOWN))), "NOT(a AND ?) is NOT a OR NOT ?");
    assertTrue(StatsPredicate.decides(new Not(new Or(EQ, UNKNOWN))), "NOT(a OR ?) is NOT a AND NOT ?");
  }
}
