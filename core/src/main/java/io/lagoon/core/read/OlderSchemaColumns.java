package io.lagoon.core.read;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.SparkTypes;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * How a data file written under an older schema holds the columns a reader asks for by their
 * current names. Columns match by field id, as Paimon's schema evolution defines them: a renamed
 * column is read under its old name, a column added since is null, a dropped and re-added one
 * (a new id) is null too, and a column whose type changed is read as written and cast.
 *
 * <p>Readers ask for physical columns (an append file's, or a key-value file's {@code _KEY_}
 * columns, system columns and values), which carry field ids in both layouts.
 */
public final class OlderSchemaColumns {
  /** The file's full column layout, as Spark types. */
  public final StructType fileSchema;
  /** The requested columns the file holds, under its own names and types, in request order. */
  public final StructType fileRequired;
  /** How the file's columns become the requested ones. */
  public final EvolvedColumns columns;
  /** Current column names read from the file unchanged (name and type): filters on them still push down. */
  private final java.util.Set<String> unchanged;

  private OlderSchemaColumns(StructType fileSchema, StructType fileRequired, EvolvedColumns columns,
                             java.util.Set<String> unchanged) {
    this.fileSchema = fileSchema;
    this.fileRequired = fileRequired;
    this.columns = columns;
    this.unchanged = unchanged;
  }

  /**
   * The mapping for files of one older schema, or null when they hold every requested column under
   * its current name and type (a schema that changed only options, or columns not read).
   *
   * @param required the requested columns, current names (a column the table does not have is
   *     passed through by name)
   * @param current the physical columns of the reader's schema
   * @param file the physical columns of the file's schema
   * @param describe names the table and schema in errors
   */
  public static OlderSchemaColumns of(StructType required, List<DataField> current, List<DataField> file,
                                      String describe) {
    List<StructField> fileRequired = new ArrayList<>();
    int n = required.fields().length;
    int[] source = new int[n];
    ColumnConversion[] conversions = new ColumnConversion[n];
    boolean changed = false;
    java.util.Set<String> unchanged = new java.util.HashSet<>();
    for (int i = 0; i < n; i++) {
      StructField r = required.fields()[i];
      DataField c = byName(current, r.name());
      DataField f = c == null ? null : byId(file, c.id());
      if (c == null) {
        // Not a table column (none today): read as named.
        source[i] = fileRequired.size();
        fileRequired.add(r);
        unchanged.add(r.name());
        continue;
      }
      if (f == null) {
        source[i] = -1;
        changed = true;
        continue;
      }
      Projected p = project(r.dataType(), c.type(), f.type(), r.name(), describe);
      source[i] = fileRequired.size();
      fileRequired.add(new StructField(f.name(), p.fileType, true, org.apache.spark.sql.types.Metadata.empty()));
      conversions[i] = p.conversion;
      if (f.name().equals(r.name()) && p.conversion == null && sameIgnoringNullability(p.fileType, r.dataType())) {
        unchanged.add(r.name());
      } else {
        changed = true;
      }
    }
    if (!changed) return null;
    StructType fileColumns = new StructType(fileRequired.toArray(new StructField[0]));
    return new OlderSchemaColumns(SparkTypes.toSpark(file), fileColumns,
        new EvolvedColumns(source, conversions, required, fileColumns), unchanged);
  }

  /**
   * The filters that still push down into the file's reader: those on columns it holds unchanged.
   * The others are left to Spark, which checks every filter on the rows anyway.
   */
  public List<Filter> pushable(List<Filter> filters) {
    List<Filter> out = new ArrayList<>();
    for (Filter f : filters) {
      boolean ok = true;
      for (String ref : f.references()) {
        int dot = ref.indexOf('.');
        if (!unchanged.contains(dot < 0 ? ref : ref.substring(0, dot))) ok = false;
      }
      if (ok) out.add(f);
    }
    return out;
  }

  /** What to request from a file for a requested type, and how to convert what it returns. */
  private record Projected(DataType fileType, ColumnConversion conversion) {
  }

  /**
   * The type to request from the file for a requested (possibly pruned) type: struct fields found
   * by id under the file's names, atomic types as the file wrote them; and the conversion to the
   * requested type (null when the values line up by position).
   */
  private static Projected project(DataType requested, PaimonType current, PaimonType file, String column,
                                   String describe) {
    if (requested instanceof StructType && current.root() == TypeRoot.ROW && file.root() == TypeRoot.ROW) {
      StructField[] wanted = ((StructType) requested).fields();
      List<StructField> out = new ArrayList<>();
      int[] source = new int[wanted.length];
      ColumnConversion[] children = new ColumnConversion[wanted.length];
      boolean rebuild = false;
      for (int j = 0; j < wanted.length; j++) {
        DataField cf = byName(current.fields(), wanted[j].name());
        DataField ff = cf == null ? null : byId(file.fields(), cf.id());
        if (ff == null) {
          // Added after the file was written: null in every row of it.
          source[j] = -1;
          rebuild = true;
          continue;
        }
        Projected p = project(wanted[j].dataType(), cf.type(), ff.type(), column + "." + wanted[j].name(), describe);
        source[j] = out.size();
        children[j] = p.conversion;
        rebuild |= p.conversion != null;
        out.add(new StructField(ff.name(), p.fileType, true, org.apache.spark.sql.types.Metadata.empty()));
      }
      if (out.isEmpty()) {
        // Every requested field is newer than the file: read one it has, for the struct's nulls.
        DataField any = file.fields().get(0);
        out.add(new StructField(any.name(), SparkTypes.toSpark(any.type()), true, org.apache.spark.sql.types.Metadata.empty()));
      }
      return new Projected(new StructType(out.toArray(new StructField[0])),
          rebuild ? new ColumnConversion.RebuildStruct(source, children) : null);
    }
    if (requested instanceof ArrayType && current.root() == file.root()
        && (file.root() == TypeRoot.ARRAY || file.root() == TypeRoot.MULTISET)) {
      ArrayType a = (ArrayType) requested;
      Projected e = project(a.elementType(), current.element(), file.element(), column, describe);
      requireAsRead(e, column, describe);
      return new Projected(new ArrayType(e.fileType, a.containsNull()), null);
    }
    if (requested instanceof MapType && current.root() == TypeRoot.MAP && file.root() == TypeRoot.MAP) {
      MapType m = (MapType) requested;
      Projected k = project(m.keyType(), current.key(), file.key(), column, describe);
      Projected v = project(m.valueType(), current.value(), file.value(), column, describe);
      requireAsRead(k, column, describe);
      requireAsRead(v, column, describe);
      return new Projected(new MapType(k.fileType, v.fileType, m.valueContainsNull()), null);
    }
    DataType fileType = SparkTypes.toSpark(file);
    if (DataType.equalsStructurally(fileType, requested, true)) return new Projected(fileType, null);
    if (!Cast.canCast(fileType, requested)) {
      throw new UnsupportedOperationException("Column " + column + " of " + describe + " was written as "
          + fileType.sql() + ", which cannot be read as " + requested.sql());
    }
    return new Projected(fileType, new ColumnConversion.CastFrom(fileType));
  }

  /** Inside arrays and maps values are only read as they are (renamed struct fields aside). */
  private static void requireAsRead(Projected p, String column, String describe) {
    if (p.conversion != null) {
      throw new UnsupportedOperationException("Column " + column + " of " + describe + " holds arrays or maps whose "
          + "element type changed since the file was written; Lagoon does not read such files yet");
    }
  }

  /** Equal types, names included, nullability aside. */
  static boolean sameIgnoringNullability(DataType a, DataType b) {
    if (a instanceof StructType && b instanceof StructType) {
      StructField[] x = ((StructType) a).fields();
      StructField[] y = ((StructType) b).fields();
      if (x.length != y.length) return false;
      for (int i = 0; i < x.length; i++) {
        if (!x[i].name().equals(y[i].name()) || !sameIgnoringNullability(x[i].dataType(), y[i].dataType())) return false;
      }
      return true;
    }
    if (a instanceof ArrayType && b instanceof ArrayType) {
      return sameIgnoringNullability(((ArrayType) a).elementType(), ((ArrayType) b).elementType());
    }
    if (a instanceof MapType && b instanceof MapType) {
      return sameIgnoringNullability(((MapType) a).keyType(), ((MapType) b).keyType())
          && sameIgnoringNullability(((MapType) a).valueType(), ((MapType) b).valueType());
    }
    return a.equals(b);
  }

  private static DataField byName(List<DataField> fields, String name) {
    for (DataField f : fields) if (f.name().equals(name)) return f;
    return null;
  }

  private static DataField byId(List<DataField> fields, int id) {
    for (DataField f : fields) if (f.id() == id) return f;
    return null;
  }
}
