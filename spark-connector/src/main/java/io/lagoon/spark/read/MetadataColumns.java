package io.lagoon.spark.read;

import org.apache.spark.sql.connector.catalog.MetadataColumn;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * The metadata columns a query may select next to a table's own: {@code _file} (the data file a
 * row was read from) and {@code _pos} (the row's position in it, what deletion vectors and
 * row-level operations key rows by). A table column of the same name hides them.
 */
public final class MetadataColumns {
  public static final String FILE = "_file";
  public static final String POS = "_pos";

  private MetadataColumns() {}

  public static MetadataColumn[] all() {
    return new MetadataColumn[] {
        column(FILE, DataTypes.StringType, "the data file the row was read from"),
        column(POS, DataTypes.LongType, "the row's position in its data file, from 0")};
  }

  public static boolean isMetadata(String name) {
    return FILE.equals(name) || POS.equals(name);
  }

  private static MetadataColumn column(String name, DataType type, String comment) {
    return new MetadataColumn() {
      @Override public String name() { return name; }
      @Override public DataType dataType() { return type; }
      @Override public boolean isNullable() { return false; }
      @Override public String comment() { return comment; }
    };
  }
}
