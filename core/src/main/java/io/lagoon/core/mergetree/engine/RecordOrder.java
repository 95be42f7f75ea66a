package io.lagoon.core.mergetree.engine;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The merge order of the records of one key: by the {@code sequence.field} columns (compared in
 * the order listed), then by sequence number. Without {@code sequence.field} the sequence number
 * alone decides, which is the order the writer saw the records in.
 *
 * <p>Semantics, from Paimon's "Sequence and Rowkind" page: the record with the largest
 * {@code sequence.field} value is merged last; equal values fall back to input order (the sequence
 * number, always ascending). Several comma-separated fields compare in order.
 * {@code sequence.field.sort-order} = {@code descending} reverses the comparison of non-null
 * values, so the smallest value is merged last. A null sequence-field value sorts first in both
 * orders: a record without an ordering value is treated as the oldest. Strings compare bytewise
 * (UTF-8), binaries as unsigned bytes; nested types (ARRAY, MAP, ROW) are rejected.
 */
public final class RecordOrder implements Comparator<KeyValue> {
  private static final RecordOrder BY_SEQUENCE_NUMBER = new RecordOrder(List.of(), List.of(), new Values.Getter[0], true);

  private final List<String> fieldNames;
  private final List<PaimonType> types;
  private final Values.Getter[] getters;
  private final boolean ascending;

  private RecordOrder(List<String> fieldNames, List<PaimonType> types, Values.Getter[] getters, boolean ascending) {
    this.fieldNames = fieldNames;
    this.types = types;
    this.getters = getters;
    this.ascending = ascending;
  }

  /** The order by sequence number only. */
  public static RecordOrder bySequenceNumber() {
    return BY_SEQUENCE_NUMBER;
  }

  /**
   * The order a table's options ask for.
   *
   * @throws IllegalArgumentException for an unknown, repeated or nested-typed
   *     {@code sequence.field} column, or a bad {@code sequence.field.sort-order}
   */
  public static RecordOrder create(Map<String, String> tableOptions, List<DataField> valueFields) {
    MergeOptions o = new MergeOptions(tableOptions);
    boolean ascending = parseSortOrder(o.get(MergeOptions.SEQUENCE_FIELD_SORT_ORDER));
    String spec = o.get(MergeOptions.SEQUENCE_FIELD);
    if (spec == null || spec.trim().isEmpty()) {
      return ascending ? BY_SEQUENCE_NUMBER : new RecordOrder(List.of(), List.of(), new Values.Getter[0], false);
    }
    List<String> names = MergeOptions.splitList(MergeOptions.SEQUENCE_FIELD, spec);
    List<PaimonType> types = new ArrayList<>();
    Values.Getter[] getters = new Values.Getter[names.size()];
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < names.size(); i++) {
      String n = names.get(i);
      if (!seen.add(n)) {
        throw new IllegalArgumentException("Table option '" + MergeOptions.SEQUENCE_FIELD + "' lists column '" + n
            + "' twice");
      }
      int pos = indexOf(valueFields, n);
      if (pos < 0) {
        throw new IllegalArgumentException("Table option '" + MergeOptions.SEQUENCE_FIELD + "' names column '" + n
            + "', which the table does not have; columns are " + names(valueFields));
      }
      PaimonType t = valueFields.get(pos).type();
      if (!Values.isOrderable(t.root())) {
        throw new IllegalArgumentException("Column '" + n + "' of type " + t + " cannot be a '"
            + MergeOptions.SEQUENCE_FIELD + "': Lagoon orders records by atomic types only");
      }
      types.add(t);
      getters[i] = Values.getter(pos, t);
    }
    return new RecordOrder(List.copyOf(names), List.copyOf(types), getters, ascending);
  }

  static boolean parseSortOrder(String v) {
    if (v == null) {
      return true;
    }
    switch (v.trim().toLowerCase(Locale.ROOT)) {
      case "ascending": return true;
      case "descending": return false;
      default:
        throw new IllegalArgumentException("Table option '" + MergeOptions.SEQUENCE_FIELD_SORT_ORDER + "'='" + v
            + "' is not supported: use 'ascending' (default) or 'descending'");
    }
  }

  /** The {@code sequence.field} columns, empty when none is set. */
  public List<String> sequenceFields() {
    return fieldNames;
  }

  public boolean hasSequenceFields() {
    return !fieldNames.isEmpty();
  }

  public boolean ascending() {
    return ascending;
  }

  @Override
  public int compare(KeyValue a, KeyValue b) {
    int c = compareSequenceFields(a.value(), b.value());
    return c != 0 ? c : Long.compare(a.sequence(), b.sequence());
  }

  /** Compares two value rows by the sequence fields alone (0 without sequence fields). */
  public int compareSequenceFields(InternalRow a, InternalRow b) {
    for (int i = 0; i < getters.length; i++) {
      Object x = getters[i].get(a);
      Object y = getters[i].get(b);
      int c;
      if (x == null || y == null) {
        c = x == null ? (y == null ? 0 : -1) : 1; // nulls first, whatever the sort order
      } else {
        c = Values.compare(types.get(i), x, y);
        if (!ascending) {
          c = -c;
        }
      }
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** Sorts a list of one key's records into merge order, in place; returns it. */
  public List<KeyValue> sort(List<KeyValue> records) {
    Collections.sort(records, this);
    return records;
  }

  static int indexOf(List<DataField> fields, String name) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  static List<String> names(List<DataField> fields) {
    List<String> out = new ArrayList<>();
    for (DataField f : fields) {
      out.add(f.name());
    }
    return out;
  }

  @Override
  public String toString() {
    return fieldNames.isEmpty() ? "by sequence number"
        : "by " + fieldNames + (ascending ? " ascending" : " descending") + ", then sequence number";
  }
}
