package io.lagoon.spark.read;

import org.apache.spark.sql.connector.catalog.MetadataColumn;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The metadata columns a query may select next to a table's own: {@code _file} (the data file a
 * row was read from) and {@code _pos} (the row's position in it, what deletion vectors and
 * row-level operations key rows by); on primary-key tables also {@code _row_before}, the whole row
 * as read, one struct, which a row-level statement carries to its writers beside the new values
 * (Spark finds metadata by name, so a column of its own is the only way the old values reach a
 * {@code -D} changelog record). A table column of the same name hides them.
 */
public final class MetadataColumns {
  public static final String FILE = "_file";
  public static final String POS = "_pos";
  public static final String ROW_BEFORE = "_row_before";

  private MetadataColumns() {}

  /** The metadata columns of a table with these columns. */
  public static MetadataColumn[] all(StructType columns, boolean primaryKey) {
    MetadataColumn file = column(FILE, DataTypes.StringType, "the data file the row was read from");
    MetadataColumn pos = column(POS, DataTypes.LongType, "the row's position in its data file, from 0");
    if (!primaryKey) return new MetadataColumn[] {file, pos};
    return new MetadataColumn[] {file, pos, column(ROW_BEFORE, columns, "the whole row as read, one struct")};
  }

  public static boolean isMetadata(String name) {
    return FILE.equals(name) || POS.equals(name) || ROW_BEFORE.equals(name);
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
