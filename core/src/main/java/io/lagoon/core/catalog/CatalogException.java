package io.lagoon.core.catalog;

/** A catalog operation refused: what is missing or already there is named in the message. */
public class CatalogException extends RuntimeException {
  public enum Kind { NO_SUCH_DATABASE, DATABASE_EXISTS, DATABASE_NOT_EMPTY, NO_SUCH_TABLE, TABLE_EXISTS, INVALID }

  private final Kind kind;

  public CatalogException(Kind kind, String msg) {
    super(msg);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
