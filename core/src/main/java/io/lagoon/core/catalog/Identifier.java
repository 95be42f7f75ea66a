package io.lagoon.core.catalog;

import java.io.Serializable;

/** A table name within a database. */
public final class Identifier implements Serializable {
  public final String database;
  public final String table;

  public Identifier(String database, String table) {
    this.database = database;
    this.table = table;
  }

  public String fullName() {
    return database + "." + table;
  }

  @Override
  public String toString() {
    return fullName();
  }
}
