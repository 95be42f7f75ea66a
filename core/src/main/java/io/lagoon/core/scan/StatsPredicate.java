package io.lagoon.core.scan;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.TypeRoot;
import java.util.List;
import java.util.function.ToIntFunction;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
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
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Decides from column statistics whether any row of a file (or partition) may satisfy a filter.
 * "False" is a proof that no row matches, so the file can be skipped; "true" only means maybe.
 */
public final class StatsPredicate {
  private StatsPredicate() {}

  /**
   * @param columnIndex maps a column name to its index in the stats, or -1 when the stats do not
   *     cover it (then the filter cannot prune)
   */
  public static boolean mayMatch(Filter f, ColumnStats s, ToIntFunction<String> columnIndex,
                                 List<DataField> fields) {
    return eval(f, s, columnIndex, fields, false);
  }

  /**
   * Whether {@link #mayMatch} can ever answer "no" for the filter's shape (stats permitting):
   * anything else always counts as "may match". Under NOT, AND and OR trade places, as in the
   * evaluation.
   */
  public static boolean decides(Filter f) {
    return decides(f, false);
  }

  private static boolean decides(Filter f, boolean negate) {
    if (f instanceof And) {
      And a = (And) f;
      return negate ? decides(a.left(), true) && decides(a.right(), true)
          : decides(a.left(), false) || decides(a.right(), false);
    }
    if (f instanceof Or) {
      Or o = (Or) f;
      return negate ? decides(o.left(), true) || decides(o.right(), true)
          : decides(o.left(), false) && decides(o.right(), false);
    }
    if (f instanceof Not) return decides(((Not) f).child(), !negate);
    return f instanceof IsNull || f instanceof IsNotNull || f instanceof EqualNullSafe || f instanceof EqualTo
        || f instanceof LessThan || f instanceof LessThanOrEqual || f instanceof GreaterThan
        || f instanceof GreaterThanOrEqual || f instanceof In;
  }

  private static boolean eval(Filter f, ColumnStats s, ToIntFunction<String> idx, List<DataField> fields, boolean negate) {
    if (f instanceof And) {
      And a = (And) f;
      return negate
          ? eval(a.left(), s, idx, fields, true) || eval(a.right(), s, idx, fields, true)
          : eval(a.left(), s, idx, fields, false) && eval(a.right(), s, idx, fields, false);
    }
    if (f instanceof Or) {
      Or o = (Or) f;
      return negate
          ? eval(o.left(), s, idx, fields, true) && eval(o.right(), s, idx, fields, true)
          : eval(o.left(), s, idx, fields, false) || eval(o.right(), s, idx, fields, false);
    }
    if (f instanceof Not) return eval(((Not) f).child(), s, idx, fields, !negate);
    if (f instanceof IsNull) {
      int c = idx.applyAsInt(((IsNull) f).attribute());
      return c < 0 || (negate ? hasNonNull(s, c) : hasNull(s, c));
    }
    if (f instanceof IsNotNull) {
      int c = idx.applyAsInt(((IsNotNull) f).attribute());
      return c < 0 || (negate ? hasNull(s, c) : hasNonNull(s, c));
    }
    if (f instanceof EqualNullSafe) {
      EqualNullSafe e = (EqualNullSafe) f;
      if (e.value() == null) return eval(new IsNull(e.attribute()), s, idx, fields, negate);
      return eval(new EqualTo(e.attribute(), e.value()), s, idx, fields, negate);
    }
    if (f instanceof EqualTo) {
      EqualTo e = (EqualTo) f;
      return compare(e.attribute(), e.value(), negate ? Op.NE : Op.EQ, s, idx, fields);
    }
    if (f instanceof LessThan) {
      LessThan e = (LessThan) f;
      return compare(e.attribute(), e.value(), negate ? Op.GE : Op.LT, s, idx, fields);
    }
    if (f instanceof LessThanOrEqual) {
      LessThanOrEqual e = (LessThanOrEqual) f;
      return compare(e.attribute(), e.value(), negate ? Op.GT : Op.LE, s, idx, fields);
    }
    if (f instanceof GreaterThan) {
      GreaterThan e = (GreaterThan) f;
      return compare(e.attribute(), e.value(), negate ? Op.LE : Op.GT, s, idx, fields);
    }
    if (f instanceof GreaterThanOrEqual) {
      GreaterThanOrEqual e = (GreaterThanOrEqual) f;
      return compare(e.attribute(), e.value(), negate ? Op.LT : Op.GE, s, idx, fields);
    }
    if (f instanceof In) {
      In in = (In) f;
      if (negate) {
        // x NOT IN (.., null) is never true; otherwise false only if every row equals a listed value
        for (Object v : in.values()) if (v == null) return false;
        for (Object v : in.values()) if (!compare(in.attribute(), v, Op.NE, s, idx, fields)) return false;
        return true;
      }
      for (Object v : in.values()) {
        if (v != null && compare(in.attribute(), v, Op.EQ, s, idx, fields)) return true;
      }
      return false;
    }
    return true; // unknown filters never prune
  }

  private static boolean hasNull(ColumnStats s, int c) {
    Long n = s.nullCount(c);
    return n == null || n > 0;
  }

  private static boolean hasNonNull(ColumnStats s, int c) {
    Long n = s.nullCount(c);
    return n == null || n < s.rowCount();
  }

  private enum Op { EQ, NE, LT, LE, GT, GE }

  private static boolean compare(String attr, Object literal, Op op, ColumnStats s,
                                 ToIntFunction<String> idx, List<DataField> fields) {
    int c = idx.applyAsInt(attr);
    if (c < 0 || literal == null) return true;
    Long nulls = s.nullCount(c);
    if (nulls != null && nulls >= s.rowCount()) return false; // only nulls: no comparison is true
    Object min = s.min(c);
    Object max = s.max(c);
    if (min == null || max == null || isNaN(min) || isNaN(max)) return true; // NaN bounds prove nothing
    Object v = toInternal(literal, fields.get(c).type().root());
    if (v == null || v.getClass() != min.getClass()) return true;
    int cmin = cmp(min, v);
    int cmax = cmp(max, v);
    switch (op) {
      case EQ: return cmin <= 0 && cmax >= 0;
      case NE: return !(s.exact(c) && cmin == 0 && cmax == 0); // null rows never match either
      case LT: return cmin < 0;
      case LE: return cmin <= 0;
      case GT: return cmax > 0;
      case GE: return cmax >= 0;
      default: return true;
    }
  }

  static boolean isNaN(Object v) {
    return (v instanceof Double && ((Double) v).isNaN()) || (v instanceof Float && ((Float) v).isNaN());
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int cmp(Object a, Object b) {
    return ((Comparable) a).compareTo(b);
  }

  /** Converts a filter literal to the Catalyst internal value of the column's type, or null. */
  static Object toInternal(Object literal, TypeRoot root) {
    Object v = CatalystTypeConverters.convertToCatalyst(literal);
    switch (root) {
      case TINYINT: return v instanceof Number ? (Object) ((Number) v).byteValue() : null;
      case SMALLINT: return v instanceof Number ? (Object) ((Number) v).shortValue() : null;
      case INT: case DATE: case TIME: return v instanceof Integer ? v : null;
      case BIGINT: case TIMESTAMP: case TIMESTAMP_LTZ: return v instanceof Number ? (Object) ((Number) v).longValue() : null;
      case FLOAT: return v instanceof Float ? v : null;
      case DOUBLE: return v instanceof Double ? v : null;
      case DECIMAL: return v instanceof Decimal ? v : null;
      case CHAR: case VARCHAR: return v instanceof UTF8String ? v : null;
      case BOOLEAN: return v instanceof Boolean ? v : null;
      default: return null;
    }
  }
}
