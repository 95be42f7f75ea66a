package io.lagoon.core.mergetree.engine;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;

/**
 * {@code merge-engine} = {@code partial-update}: columns fill in over several records.
 *
 * <p>Semantics, from Paimon's "Partial Update" page (0.9 and later):
 * <ul>
 *   <li>Columns outside sequence groups take the latest non-null value in merge order; a null
 *       never overwrites ("null values are not overwritten").</li>
 *   <li>{@code fields.<s>.sequence-group}={@code a,b} (or {@code fields.<s1>,<s2>.sequence-group}
 *       for a sequence compared field by field): a record updates {@code a,b} and the sequence
 *       field(s) only when its sequence tuple is not all null and is &gt;= the stored one (nulls
 *       sort first, so any value beats a stored null; an equal tuple updates, as the later
 *       record). An accepted record writes its values, nulls included ("a true partial-update,
 *       not just a non-null update"). A record whose tuple is all null leaves the group alone.</li>
 *   <li>A protected column with an aggregate function ({@code fields.<f>.aggregate-function}, or
 *       {@code fields.default-aggregate-function}) aggregates instead; the sequence then orders
 *       rather than filters: a record with an older tuple still contributes, as if it had come
 *       first (so {@code sum} adds it, {@code first_value} takes it, {@code last_value} ignores
 *       it, {@code listagg} puts it in front of everything aggregated so far), and the stored
 *       sequence only advances. Aggregate functions are only allowed on
 *       protected columns.</li>
 *   <li>Deletes: "by default, partial update can not accept delete records", so a {@code -U} or
 *       {@code -D} is an error unless one of these is set: {@code ignore-delete}=true drops them;
 *       {@code partial-update.remove-record-on-delete}=true makes a {@code -D} remove the whole row
 *       (a {@code -U} is dropped: it is always followed by the {@code +U} that replaces it);
 *       sequence groups retract per group: for a retraction whose tuple is accepted, the group's
 *       sequence advances and its plain columns become null while aggregated columns retract
 *       (see {@link FieldAggregator}); older retractions only reach order-independent retracting
 *       functions (sum, product, collect, merge_map). Columns outside groups keep their values.
 *       {@code partial-update.remove-record-on-sequence-group} lists sequence fields whose group,
 *       on an accepted {@code -D}, removes the whole row.</li>
 *   <li>A removed row starts from scratch with the next record (all columns and stored sequences
 *       null). A key without any {@code +I}/{@code +U} since the start or the last removal has no
 *       row.</li>
 * </ul>
 * The result's row kind is {@code +I}; its sequence number is the last applied record's.
 */
final class PartialUpdateMergeFunction implements MergeFunction {
  /** One sequence group: its sequence columns and the columns it protects. */
  static final class SequenceGroup {
    final String name;
    final int[] sequencePositions;
    final PaimonType[] sequenceTypes;
    final int[] protectedPositions;
    /** Parallel to {@link #protectedPositions}; null where the column has no aggregate function. */
    final FieldAggregator[] aggregators;
    final boolean removeRecordOnDelete;

    SequenceGroup(String name, int[] sequencePositions, PaimonType[] sequenceTypes, int[] protectedPositions,
                  FieldAggregator[] aggregators, boolean removeRecordOnDelete) {
      this.name = name;
      this.sequencePositions = sequencePositions;
      this.sequenceTypes = sequenceTypes;
      this.protectedPositions = protectedPositions;
      this.aggregators = aggregators;
      this.removeRecordOnDelete = removeRecordOnDelete;
    }
  }

  private final List<DataField> fields;
  private final Values.Getter[] getters;
  /** Columns outside every sequence group (primary-key columns included). */
  private final int[] plainPositions;
  private final SequenceGroup[] groups;
  private final boolean ignoreDelete;
  private final boolean removeRecordOnDelete;

  private final Object[] row;
  private InternalRow key;
  private long sequence;
  private boolean hasRow;
  /** Primary-key column positions, filled from the record when only retractions were seen. */
  private final int[] keyPositions;
  /** The value of the last retraction applied, kept for {@link #storedResult()}. */
  private InternalRow lastRetraction;
  /** Whether the last retraction removed the whole row. */
  private boolean removed;

  PartialUpdateMergeFunction(List<DataField> fields, int[] keyPositions, int[] plainPositions, SequenceGroup[] groups,
                             boolean ignoreDelete, boolean removeRecordOnDelete) {
    this.keyPositions = keyPositions;
    this.fields = List.copyOf(fields);
    this.getters = Values.getters(fields);
    this.plainPositions = plainPositions;
    this.groups = groups;
    this.ignoreDelete = ignoreDelete;
    this.removeRecordOnDelete = removeRecordOnDelete;
    this.row = new Object[fields.size()];
  }

  @Override
  public void reset() {
    clearRow();
    key = null;
    sequence = 0;
    lastRetraction = null;
    removed = false;
  }

  private void clearRow() {
    Arrays.fill(row, null);
    for (SequenceGroup g : groups) {
      for (FieldAggregator a : g.aggregators) {
        if (a != null) {
          a.reset();
        }
      }
    }
    hasRow = false;
  }

  @Override
  public void add(KeyValue kv) {
    if (kv.isRetract()) {
      if (ignoreDelete) {
        return;
      }
      if (groups.length == 0) {
        if (!removeRecordOnDelete) {
          throw new IllegalStateException("By default the partial-update merge engine cannot accept "
              + KeyValue.kindName(kv.rowKind()) + " records (sequence " + kv.sequence() + "). Set one of the table "
              + "options: '" + MergeOptions.IGNORE_DELETE + "'='true' to ignore them; '"
              + MergeOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE + "'='true' to remove the whole row on -D; or "
              + "'fields.<seq>.sequence-group' to retract the columns of a sequence group");
        }
        noteRecord(kv);
        if (kv.rowKind() == KeyValue.DELETE) {
          clearRow();
          noteRetraction(kv, true);
        }
        return;
      }
      noteRecord(kv);
      noteRetraction(kv, false);
      retractWithGroups(kv);
      return;
    }
    noteRecord(kv);
    removed = false;
    InternalRow in = kv.value();
    for (int p : plainPositions) {
      Object v = getters[p].get(in);
      if (v != null) {
        row[p] = Values.copy(fields.get(p).type(), v);
      }
    }
    for (SequenceGroup g : groups) {
      if (allSequenceNull(g, in)) {
        continue;
      }
      if (compareSequence(g, in) >= 0) {
        copySequence(g, in);
        for (int j = 0; j < g.protectedPositions.length; j++) {
          int p = g.protectedPositions[j];
          Object v = getters[p].get(in);
          FieldAggregator a = g.aggregators[j];
          if (a == null) {
            row[p] = Values.copy(fields.get(p).type(), v);
          } else {
            a.agg(v);
            row[p] = a.result();
          }
        }
      } else {
        for (int j = 0; j < g.protectedPositions.length; j++) {
          FieldAggregator a = g.aggregators[j];
          if (a != null) {
            int p = g.protectedPositions[j];
            a.aggReversed(getters[p].get(in));
            row[p] = a.result();
          }
        }
      }
    }
    hasRow = true;
  }

  private void retractWithGroups(KeyValue kv) {
    InternalRow in = kv.value();
    byte kind = kv.rowKind();
    if (kind == KeyValue.DELETE) {
      for (SequenceGroup g : groups) {
        if (g.removeRecordOnDelete && !allSequenceNull(g, in) && compareSequence(g, in) >= 0) {
          clearRow();
          removed = true;
          return;
        }
      }
    }
    // Refuse before changing anything.
    for (SequenceGroup g : groups) {
      if (!allSequenceNull(g, in)) {
        boolean newer = compareSequence(g, in) >= 0;
        for (FieldAggregator a : g.aggregators) {
          if (a != null && (newer || !a.supportsRetract())) {
            a.checkRetract(kind);
          }
        }
      }
    }
    for (SequenceGroup g : groups) {
      if (allSequenceNull(g, in)) {
        continue;
      }
      boolean newer = compareSequence(g, in) >= 0;
      if (newer) {
        copySequence(g, in);
      }
      for (int j = 0; j < g.protectedPositions.length; j++) {
        int p = g.protectedPositions[j];
        FieldAggregator a = g.aggregators[j];
        if (a == null) {
          if (newer) {
            row[p] = null;
          }
        } else {
          Object v = getters[p].get(in);
          if (newer) {
            a.applyRetract(v, kind);
          } else {
            a.applyRetractReversed(v, kind);
          }
          row[p] = a.result();
        }
      }
    }
  }

  private void noteRetraction(KeyValue kv, boolean removesRow) {
    lastRetraction = Values.copyValueRow(kv.value(), getters, fields);
    removed = removesRow;
  }

  private void noteRecord(KeyValue kv) {
    if (key == null) {
      key = Values.copyKey(kv.key());
    }
    sequence = kv.sequence();
  }

  private boolean allSequenceNull(SequenceGroup g, InternalRow in) {
    for (int p : g.sequencePositions) {
      if (!in.isNullAt(p)) {
        return false;
      }
    }
    return true;
  }

  /** Compares the record's sequence tuple with the stored one, field by field, nulls first. */
  private int compareSequence(SequenceGroup g, InternalRow in) {
    for (int i = 0; i < g.sequencePositions.length; i++) {
      int p = g.sequencePositions[i];
      Object x = getters[p].get(in);
      Object y = row[p];
      int c;
      if (x == null || y == null) {
        c = x == null ? (y == null ? 0 : -1) : 1;
      } else {
        c = Values.compare(g.sequenceTypes[i], x, y);
      }
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private void copySequence(SequenceGroup g, InternalRow in) {
    for (int i = 0; i < g.sequencePositions.length; i++) {
      int p = g.sequencePositions[i];
      row[p] = Values.copy(g.sequenceTypes[i], getters[p].get(in));
    }
  }

  @Override
  public KeyValue result() {
    if (!hasRow) {
      return null;
    }
    return new KeyValue(key, sequence, KeyValue.INSERT, new GenericInternalRow(row.clone()));
  }

  @Override
  public KeyValue storedResult() {
    if (hasRow || lastRetraction == null) {
      return result();
    }
    if (removed) {
      return new KeyValue(key, sequence, KeyValue.DELETE, lastRetraction);
    }
    // Only retractions of sequence groups: store the row that retracts them, keyed.
    Object[] out = row.clone();
    for (int p : keyPositions) out[p] = Values.copy(fields.get(p).type(), getters[p].get(lastRetraction));
    return new KeyValue(key, sequence, KeyValue.INSERT, new GenericInternalRow(out));
  }
}
