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
    DataType[] from = new DataType[n];
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
      StructField ff = SparkTypes.toSparkField(f);
      requireSameNesting(f.type(), c.type(), r.name(), describe);
      boolean sameType = sameIgnoringNullability(ff.dataType(), r.dataType());
      if (!sameType && !DataType.equalsStructurally(ff.dataType(), r.dataType(), true)
          && !Cast.canCast(ff.dataType(), r.dataType())) {
        throw new UnsupportedOperationException("Column " + r.name() + " of " + describe + " was written as "
            + ff.dataType().sql() + ", which cannot be read as " + r.dataType().sql());
      }
      source[i] = fileRequired.size();
      fileRequired.add(ff);
      // Nested names may differ (a renamed struct field): structs are read by position once
      // the file's own names found them.
      from[i] = DataType.equalsStructurally(ff.dataType(), r.dataType(), true) ? null : ff.dataType();
      if (f.name().equals(r.name()) && sameType) unchanged.add(r.name());
      else changed = true;
    }
    if (!changed) return null;
    return new OlderSchemaColumns(SparkTypes.toSpark(file), new StructType(fileRequired.toArray(new StructField[0])),
        new EvolvedColumns(source, from, required), unchanged);
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

  /**
   * Structs are read by position, so a nested row must keep its fields' ids in order (renames
   * and type changes inside it are fine); an added, dropped or moved nested field is refused.
   */
  private static void requireSameNesting(PaimonType file, PaimonType current, String column, String describe) {
    if (file.root() != current.root()) return; // a cast between kinds; Cast.canCast decides
    if (file.root() == TypeRoot.ROW) {
      List<DataField> a = file.fields();
      List<DataField> b = current.fields();
      boolean same = a.size() == b.size();
      for (int i = 0; same && i < a.size(); i++) same = a.get(i).id() == b.get(i).id();
      if (!same) {
        throw new UnsupportedOperationException("Column " + column + " of " + describe + " has nested fields added, "
            + "dropped or moved since the file was written; Lagoon does not read such files yet");
      }
      for (int i = 0; i < a.size(); i++) {
        requireSameNesting(a.get(i).type(), b.get(i).type(), column + "." + b.get(i).name(), describe);
      }
    } else if (file.root() == TypeRoot.ARRAY || file.root() == TypeRoot.MULTISET) {
      requireSameNesting(file.element(), current.element(), column, describe);
    } else if (file.root() == TypeRoot.MAP) {
      requireSameNesting(file.key(), current.key(), column, describe);
      requireSameNesting(file.value(), current.value(), column, describe);
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
