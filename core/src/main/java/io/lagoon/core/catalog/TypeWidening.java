package io.lagoon.core.catalog;

import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;

/**
 * The column type changes ALTER TABLE allows: those that keep every value a file already holds
 * exactly (files are not rewritten; readers cast old values on the fly).
 */
public final class TypeWidening {
  public static final String DESCRIPTION = "tinyint to smallint to int to bigint, small integers to float or double, "
      + "float to double, integers to a decimal with room for their digits, decimal to more integer and fraction "
      + "digits, char or varchar to a longer varchar, binary to a longer varbinary, date to timestamp, timestamp to "
      + "a finer precision";

  private TypeWidening() {}

  public static boolean allowed(PaimonType from, PaimonType to) {
    TypeRoot a = from.root();
    TypeRoot b = to.root();
    if (a == b && sameParameters(from, to)) return true;
    switch (a) {
      case TINYINT:
      case SMALLINT:
      case INT:
      case BIGINT:
        if (b == TypeRoot.TINYINT || b == TypeRoot.SMALLINT || b == TypeRoot.INT || b == TypeRoot.BIGINT) {
          return rank(b) >= rank(a);
        }
        if (b == TypeRoot.FLOAT) return a == TypeRoot.TINYINT || a == TypeRoot.SMALLINT;
        if (b == TypeRoot.DOUBLE) return a != TypeRoot.BIGINT;
        if (b == TypeRoot.DECIMAL) return to.precision() - to.scale() >= digits(a);
        return false;
      case FLOAT:
        return b == TypeRoot.DOUBLE;
      case DECIMAL:
        return b == TypeRoot.DECIMAL && to.scale() >= from.scale()
            && to.precision() - to.scale() >= from.precision() - from.scale();
      case CHAR:
      case VARCHAR:
        return b == TypeRoot.VARCHAR && to.length() >= from.length();
      case BINARY:
      case VARBINARY:
        return b == TypeRoot.VARBINARY && to.length() >= from.length();
      case DATE:
        return b == TypeRoot.TIMESTAMP;
      case TIMESTAMP:
      case TIMESTAMP_LTZ:
        return a == b && to.precision() >= from.precision();
      default:
        return false;
    }
  }

  private static boolean sameParameters(PaimonType a, PaimonType b) {
    return a.copy(true).equals(b.copy(true));
  }

  private static int rank(TypeRoot r) {
    switch (r) {
      case TINYINT: return 1;
      case SMALLINT: return 2;
      case INT: return 3;
      default: return 4;
    }
  }

  /** Decimal digits the largest value of an integer type has. */
  private static int digits(TypeRoot r) {
    switch (r) {
      case TINYINT: return 3;
      case SMALLINT: return 5;
      case INT: return 10;
      default: return 19;
    }
  }
}
