package io.lagoon.core.catalog;

import io.lagoon.core.catalog.CatalogException.Kind;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * ALTER TABLE column changes applied to a copy of a schema's columns, as Paimon's schema evolution
 * defines them: every column keeps its field id through renames, type changes and moves; an added
 * column (or struct field) takes a new id, so a dropped and re-added column starts empty. Data
 * files are never rewritten: readers match their columns by id ({@code OlderSchemaColumns}).
 *
 * <p>Refused, with the schema left as it was: dropping, renaming or retyping a partition,
 * primary-key or bucket-key column, or a column an option names; a type change that is not a
 * widening ({@link TypeWidening}); making a column NOT NULL or adding one. Struct fields are
 * added, dropped, renamed, moved and widened like columns (with dotted paths).
 */
public final class ColumnChanges {
  /** Where an added or moved column goes: first, after a column, or (both unset) last. */
  public record Position(boolean first, String after) {
    public static final Position LAST = new Position(false, null);
  }

  private final Identifier table;
  private final TableSchema base;
  private final List<DataField> fields;
  private final AtomicInteger highestId;

  public ColumnChanges(Identifier table, TableSchema base) {
    this.table = table;
    this.base = base;
    this.fields = new ArrayList<>(base.fields());
    this.highestId = new AtomicInteger(base.highestFieldId());
  }

  /** Hands out ids for the fields of a column being added (nested ones included). */
  public AtomicInteger ids() {
    return highestId;
  }

  public List<DataField> fields() { return fields; }
  public int highestFieldId() { return highestId.get(); }

  public boolean isNoOp() {
    return fields.equals(base.fields()) && highestId.get() == base.highestFieldId();
  }

  /** Adds a column, or with a longer path a struct field, whose type the caller built with {@link #ids()}. */
  public ColumnChanges add(String[] path, PaimonType type, String comment, Position position) {
    String name = path[path.length - 1];
    String shown = String.join(".", path);
    if (!type.nullable()) throw invalid("cannot add column " + shown + " as NOT NULL: rows written before it have no value");
    inParent(path, siblings -> {
      if (indexOf(siblings, name) >= 0) throw invalid("cannot add column " + shown + ": it already exists");
      DataField f = new DataField(highestId.incrementAndGet(), name, type, comment);
      siblings.add(insertAt(siblings, position, shown), f);
    });
    return this;
  }

  public ColumnChanges drop(String[] path, boolean ifExists) {
    String shown = String.join(".", path);
    if (indexOf(fields, path[0]) < 0) {
      if (ifExists) return this;
      throw invalid("cannot drop column " + shown + ": it does not exist");
    }
    if (path.length == 1) requireFree(path[0], "drop");
    inParent(path, siblings -> {
      int i = indexOf(siblings, path[path.length - 1]);
      if (i < 0) {
        if (ifExists) return;
        throw invalid("cannot drop column " + shown + ": it does not exist");
      }
      if (siblings.size() == 1) {
        throw invalid("cannot drop column " + shown + ": it is the only " + (path.length == 1 ? "column of the table"
            : "field of its struct"));
      }
      siblings.remove(i);
    });
    return this;
  }

  public ColumnChanges rename(String[] path, String newName) {
    requireFree(path[0], path.length == 1 ? "rename" : "rename a field of");
    update(path, (siblings, i) -> {
      if (indexOf(siblings, newName) >= 0) throw invalid("cannot rename " + String.join(".", path) + " to " + newName
          + ": a column of that name exists");
      siblings.set(i, siblings.get(i).withName(newName));
    });
    return this;
  }

  public ColumnChanges retype(String[] path, PaimonType type) {
    if (path.length == 1) requireFree(path[0], "change the type of");
    update(path, (siblings, i) -> {
      DataField f = siblings.get(i);
      PaimonType to = f.type().nullable() ? type.copy(true) : type.copy(false);
      if (f.type().root().isNested() || to.root().isNested()) {
        throw invalid("cannot change the type of " + String.join(".", path) + " from " + f.type() + " to " + to
            + ": only atomic types change (change a struct's fields one by one)");
      }
      if (!TypeWidening.allowed(f.type(), to)) {
        throw invalid("cannot change the type of " + f.name() + " from " + f.type() + " to " + to
            + ": only widening changes are allowed (" + TypeWidening.DESCRIPTION + ")");
      }
      siblings.set(i, f.withType(to));
    });
    return this;
  }

  public ColumnChanges nullability(String[] path, boolean nullable) {
    update(path, (siblings, i) -> {
      DataField f = siblings.get(i);
      if (!nullable && f.type().nullable()) {
        throw invalid("cannot make " + String.join(".", path) + " NOT NULL: rows already written may hold nulls");
      }
      if (nullable && !f.type().nullable() && path.length == 1
          && (base.primaryKeys().contains(f.name()) || base.partitionKeys().contains(f.name()))) {
        throw invalid("cannot make key column " + f.name() + " nullable");
      }
      siblings.set(i, f.withType(f.type().copy(nullable)));
    });
    return this;
  }

  public ColumnChanges comment(String[] path, String comment) {
    update(path, (siblings, i) -> siblings.set(i, siblings.get(i).withDescription(comment)));
    return this;
  }

  public ColumnChanges move(String[] path, Position position) {
    String shown = String.join(".", path);
    String name = path[path.length - 1];
    if (name.equals(position.after())) throw invalid("cannot move column " + shown + " after itself");
    inParent(path, siblings -> {
      int i = indexOf(siblings, name);
      if (i < 0) throw invalid("cannot move column " + shown + ": it does not exist");
      DataField f = siblings.remove(i);
      siblings.add(insertAt(siblings, position, shown), f);
    });
    return this;
  }

  private int insertAt(List<DataField> siblings, Position position, String shown) {
    if (position.first()) return 0;
    if (position.after() == null) return siblings.size();
    int after = indexOf(siblings, position.after());
    if (after < 0) throw invalid("cannot place column " + shown + " after " + position.after() + ": no such column");
    return after + 1;
  }

  /** Hands the list holding the path's last element (the table's columns, or a struct's fields) to {@code edit}. */
  private void inParent(String[] path, java.util.function.Consumer<List<DataField>> edit) {
    if (path.length == 1) {
      edit.accept(fields);
      return;
    }
    String[] parent = Arrays.copyOf(path, path.length - 1);
    update(parent, (siblings, i) -> {
      DataField p = siblings.get(i);
      if (p.type().root() != TypeRoot.ROW) throw invalid(String.join(".", parent) + " is not a struct");
      List<DataField> children = new ArrayList<>(p.type().fields());
      edit.accept(children);
      siblings.set(i, p.withType(withFields(p.type(), children)));
    });
  }

  /** The field at the path, in the list of its siblings, handed to {@code edit} to replace. */
  private void update(String[] path, FieldEdit edit) {
    List<DataField> siblings = fields;
    List<Runnable> rebuild = new ArrayList<>();
    for (int depth = 0; ; depth++) {
      int i = indexOf(siblings, path[depth]);
      if (i < 0) {
        throw invalid("column " + String.join(".", Arrays.copyOf(path, depth + 1)) + " does not exist");
      }
      if (depth == path.length - 1) {
        edit.apply(siblings, i);
        break;
      }
      DataField parent = siblings.get(i);
      if (parent.type().root() != TypeRoot.ROW) {
        throw invalid(String.join(".", Arrays.copyOf(path, depth + 1)) + " is not a struct");
      }
      List<DataField> children = new ArrayList<>(parent.type().fields());
      List<DataField> outer = siblings;
      int at = i;
      // Rebuilt innermost first once the edit is made: a struct's type is immutable.
      rebuild.add(0, () -> outer.set(at, parent.withType(withFields(parent.type(), children))));
      siblings = children;
    }
    for (Runnable r : rebuild) r.run();
  }

  private static PaimonType withFields(PaimonType row, List<DataField> fields) {
    PaimonType t = PaimonType.row(fields);
    return row.nullable() ? t : t.notNull();
  }

  private interface FieldEdit {
    void apply(List<DataField> siblings, int index);
  }

  /** Refuses changing a column the table's layout or options depend on by name. */
  private void requireFree(String column, String what) {
    if (base.partitionKeys().contains(column)) throw invalid("cannot " + what + " partition column " + column);
    if (base.primaryKeys().contains(column)) throw invalid("cannot " + what + " primary-key column " + column);
    for (Map.Entry<String, String> o : base.options().entrySet()) {
      if (!namesColumns(o.getKey())) continue;
      for (String c : o.getValue().split(",")) {
        if (c.trim().equals(column)) {
          throw invalid("cannot " + what + " column " + column + ": option '" + o.getKey() + "' names it (change the "
              + "option first)");
        }
      }
    }
  }

  /** Options whose value lists columns by name. */
  private static boolean namesColumns(String key) {
    return key.equals("bucket-key") || key.equals("sequence.field") || key.equals("rowkind.field")
        || key.startsWith("file-index.") && key.endsWith(".columns") || key.startsWith("fields.") && key.endsWith(".sequence-group")
        || key.equals("partial-update.remove-record-on-sequence-group");
  }

  private CatalogException invalid(String message) {
    return new CatalogException(Kind.INVALID, "Table " + table + ": " + message);
  }

  private static int indexOf(List<DataField> fields, String name) {
    for (int i = 0; i < fields.size(); i++) if (Objects.equals(fields.get(i).name(), name)) return i;
    return -1;
  }
}
