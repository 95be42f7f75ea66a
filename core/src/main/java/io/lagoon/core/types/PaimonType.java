package io.lagoon.core.types;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * An immutable Paimon logical type: the root, nullability, length or precision/scale, and the
 * children of nested types. Precision matters on disk (TIMESTAMP(3) and TIMESTAMP(6) encode
 * differently in BinaryRow), so it is kept exactly as the schema file states it.
 */
public final class PaimonType implements Serializable {
  public static final int MAX_LENGTH = Integer.MAX_VALUE;

  private final TypeRoot root;
  private final boolean nullable;
  /** Length for CHAR/VARCHAR/BINARY/VARBINARY, precision for DECIMAL/TIME/TIMESTAMP. */
  private final int precision;
  private final int scale;
  /** ARRAY/MULTISET element, or MAP key. */
  private final PaimonType first;
  /** MAP value. */
  private final PaimonType second;
  private final List<DataField> fields;

  private PaimonType(TypeRoot root, boolean nullable, int precision, int scale,
                     PaimonType first, PaimonType second, List<DataField> fields) {
    this.root = root;
    this.nullable = nullable;
    this.precision = precision;
    this.scale = scale;
    this.first = first;
    this.second = second;
    this.fields = fields == null ? null : List.copyOf(fields);
  }

  public static PaimonType of(TypeRoot root) {
    switch (root) {
      case DECIMAL: return decimal(10, 0);
      case CHAR: return new PaimonType(root, true, 1, 0, null, null, null);
      case VARCHAR: case VARBINARY: return new PaimonType(root, true, MAX_LENGTH, 0, null, null, null);
      case BINARY: return new PaimonType(root, true, 1, 0, null, null, null);
      case TIME: return new PaimonType(root, true, 0, 0, null, null, null);
      case TIMESTAMP: case TIMESTAMP_LTZ: return new PaimonType(root, true, 6, 0, null, null, null);
      default:
        if (root.isNested()) throw new IllegalArgumentException("nested type needs children: " + root);
        return new PaimonType(root, true, 0, 0, null, null, null);
    }
  }

  public static PaimonType withLength(TypeRoot root, int length) {
    return new PaimonType(root, true, length, 0, null, null, null);
  }

  public static PaimonType decimal(int precision, int scale) {
    if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
      throw new IllegalArgumentException("invalid DECIMAL(" + precision + ", " + scale + ")");
    }
    return new PaimonType(TypeRoot.DECIMAL, true, precision, scale, null, null, null);
  }

  public static PaimonType timestamp(int precision, boolean localTimeZone) {
    return new PaimonType(localTimeZone ? TypeRoot.TIMESTAMP_LTZ : TypeRoot.TIMESTAMP, true, precision, 0, null, null, null);
  }

  public static PaimonType time(int precision) {
    return new PaimonType(TypeRoot.TIME, true, precision, 0, null, null, null);
  }

  public static PaimonType array(PaimonType element) {
    return new PaimonType(TypeRoot.ARRAY, true, 0, 0, element, null, null);
  }

  public static PaimonType multiset(PaimonType element) {
    return new PaimonType(TypeRoot.MULTISET, true, 0, 0, element, null, null);
  }

  public static PaimonType map(PaimonType key, PaimonType value) {
    return new PaimonType(TypeRoot.MAP, true, 0, 0, key, value, null);
  }

  public static PaimonType row(List<DataField> fields) {
    return new PaimonType(TypeRoot.ROW, true, 0, 0, null, null, fields);
  }

  public TypeRoot root() { return root; }
  public boolean nullable() { return nullable; }
  public int length() { return precision; }
  public int precision() { return precision; }
  public int scale() { return scale; }
  public PaimonType element() { return first; }
  public PaimonType key() { return first; }
  public PaimonType value() { return second; }
  public List<DataField> fields() { return fields; }

  public PaimonType copy(boolean isNullable) {
    return new PaimonType(root, isNullable, precision, scale, first, second, fields);
  }

  public PaimonType notNull() { return copy(false); }

  /** True when a DECIMAL fits in a long (BinaryRow and Parquet store it inline then). */
  public boolean isCompactDecimal() { return root == TypeRoot.DECIMAL && precision <= 18; }

  /** True when a TIMESTAMP is stored as millis only (BinaryRow's compact form). */
  public boolean isCompactTimestamp() {
    return (root == TypeRoot.TIMESTAMP || root == TypeRoot.TIMESTAMP_LTZ) && precision <= 3;
  }

  /** The atomic type as Paimon's schema files spell it, e.g. {@code DECIMAL(10, 2) NOT NULL}. */
  public String atomicString() {
    String s;
    switch (root) {
      case DECIMAL: s = "DECIMAL(" + precision + ", " + scale + ")"; break;
      case CHAR: s = "CHAR(" + precision + ")"; break;
      case VARCHAR: s = precision == MAX_LENGTH ? "STRING" : "VARCHAR(" + precision + ")"; break;
      case BINARY: s = "BINARY(" + precision + ")"; break;
      case VARBINARY: s = precision == MAX_LENGTH ? "BYTES" : "VARBINARY(" + precision + ")"; break;
      case TIME: s = "TIME(" + precision + ")"; break;
      case TIMESTAMP: s = "TIMESTAMP(" + precision + ")"; break;
      case TIMESTAMP_LTZ: s = "TIMESTAMP(" + precision + ") WITH LOCAL TIME ZONE"; break;
      case ARRAY: case MAP: case MULTISET: case ROW: s = root.name(); break;
      default: s = root.name();
    }
    return nullable ? s : s + " NOT NULL";
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof PaimonType)) return false;
    PaimonType t = (PaimonType) o;
    return root == t.root && nullable == t.nullable && precision == t.precision && scale == t.scale
        && Objects.equals(first, t.first) && Objects.equals(second, t.second) && Objects.equals(fields, t.fields);
  }

  @Override
  public int hashCode() { return Objects.hash(root, nullable, precision, scale, first, second, fields); }

  @Override
  public String toString() {
    switch (root) {
      case ARRAY: return "ARRAY<" + first + ">" + (nullable ? "" : " NOT NULL");
      case MULTISET: return "MULTISET<" + first + ">" + (nullable ? "" : " NOT NULL");
      case MAP: return "MAP<" + first + ", " + second + ">" + (nullable ? "" : " NOT NULL");
      case ROW: return "ROW<" + fields + ">" + (nullable ? "" : " NOT NULL");
      default: return atomicString();
    }
  }
}
