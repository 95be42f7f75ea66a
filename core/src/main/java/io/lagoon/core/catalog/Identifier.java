package io.lagoon.core.catalog;

import java.io.Serializable;

/** A table name within a database; both parts are checked by {@link Names} when it is made. */
public final class Identifier implements Serializable {
  public final String database;
  public final String table;

  public Identifier(String database, String table) {
    this.database = Names.checkDatabase(database);
    this.table = Names.checkTable(table);
  }

  public String fullName() {
    return database + "." + table;
  }

  @Override
  public String toString() {
    return fullName();
  }
}
