package io.lagoon.spark.extensions;

import java.util.List;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Expression;

/** The AND-ed parts of a join condition, as the rules look at them one by one. */
final class Conjuncts {
  private Conjuncts() {}

  static void split(Expression e, List<Expression> out) {
    if (e instanceof And) {
      split(((And) e).left(), out);
      split(((And) e).right(), out);
    } else {
      out.add(e);
    }
  }
}
