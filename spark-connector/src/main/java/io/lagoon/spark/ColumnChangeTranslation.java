package io.lagoon.spark;

import io.lagoon.core.catalog.ColumnChanges;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.SparkTypes;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.types.Metadata;

/** Spark's ALTER TABLE column changes as {@link ColumnChanges}; property changes are handled beside. */
final class ColumnChangeTranslation {
  private ColumnChangeTranslation() {}

  static void apply(ColumnChanges edit, TableChange[] changes) {
    for (TableChange c : changes) {
      if (c instanceof TableChange.SetProperty || c instanceof TableChange.RemoveProperty) continue;
      if (c instanceof TableChange.AddColumn) {
        TableChange.AddColumn a = (TableChange.AddColumn) c;
        if (a.defaultValue() != null) {
          throw new UnsupportedOperationException("Column " + String.join(".", a.fieldNames())
              + " cannot be added with a DEFAULT value: Lagoon tables have no column defaults");
        }
        String name = a.fieldNames()[a.fieldNames().length - 1];
        PaimonType type = SparkTypes.fromSpark(a.dataType(), a.isNullable(), Metadata.empty(), name, edit.ids());
        edit.add(a.fieldNames(), type, a.comment(), position(a.position()));
      } else if (c instanceof TableChange.DeleteColumn) {
        TableChange.DeleteColumn d = (TableChange.DeleteColumn) c;
        edit.drop(d.fieldNames(), d.ifExists());
      } else if (c instanceof TableChange.RenameColumn) {
        TableChange.RenameColumn r = (TableChange.RenameColumn) c;
        edit.rename(r.fieldNames(), r.newName());
      } else if (c instanceof TableChange.UpdateColumnType) {
        TableChange.UpdateColumnType u = (TableChange.UpdateColumnType) c;
        String name = u.fieldNames()[u.fieldNames().length - 1];
        edit.retype(u.fieldNames(), SparkTypes.fromSpark(u.newDataType(), true, Metadata.empty(), name,
            new java.util.concurrent.atomic.AtomicInteger(edit.highestFieldId())));
      } else if (c instanceof TableChange.UpdateColumnNullability) {
        TableChange.UpdateColumnNullability u = (TableChange.UpdateColumnNullability) c;
        edit.nullability(u.fieldNames(), u.nullable());
      } else if (c instanceof TableChange.UpdateColumnComment) {
        TableChange.UpdateColumnComment u = (TableChange.UpdateColumnComment) c;
        edit.comment(u.fieldNames(), u.newComment());
      } else if (c instanceof TableChange.UpdateColumnPosition) {
        TableChange.UpdateColumnPosition u = (TableChange.UpdateColumnPosition) c;
        edit.move(u.fieldNames(), position(u.position()));
      } else {
        throw new UnsupportedOperationException("Lagoon tables cannot be altered with " + c.getClass().getSimpleName());
      }
    }
  }

  private static ColumnChanges.Position position(TableChange.ColumnPosition p) {
    if (p == null) return ColumnChanges.Position.LAST;
    if (p instanceof TableChange.First) return new ColumnChanges.Position(true, null);
    return new ColumnChanges.Position(false, ((TableChange.After) p).column());
  }
}
