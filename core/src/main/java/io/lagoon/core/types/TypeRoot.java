package io.lagoon.core.types;

/** The logical type families of Paimon's type system that Lagoon reads and writes. */
public enum TypeRoot {
  BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL,
  CHAR, VARCHAR, BINARY, VARBINARY,
  DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ,
  ARRAY, MAP, MULTISET, ROW;

  public boolean isString() {
    return this == CHAR || this == VARCHAR;
  }

  public boolean isBinary() {
    return this == BINARY || this == VARBINARY;
  }

  public boolean isNested() {
    return this == ARRAY || this == MAP || this == MULTISET || this == ROW;
  }
}
