package io.lagoon.core.mergetree.engine;

import io.lagoon.core.types.DataField;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;

/**
 * {@code merge-engine} = {@code aggregation}: every non-key column folds the key's records with
 * its aggregate function, in merge order; primary-key columns keep the key.
 *
 * <p>Paimon docs ("Aggregation"):
 * <ul>
 *   <li>each non-key field takes {@code fields.<f>.aggregate-function}, by default
 *       {@code last_non_null_value} ({@code fields.default-aggregate-function} changes the
 *       default); a {@code sequence.field} column without a function keeps its last value so the
 *       merged row carries the ordering value of its latest record;</li>
 *   <li>retraction ({@code -U}, {@code -D}): sum subtracts, product divides (a null accumulator
 *       stays null), last_value and last_non_null_value set the field to null, collect and
 *       merge_map remove the retracted elements or keys; every other function refuses a
 *       retraction unless {@code fields.<f>.ignore-retract}=true, which ignores it;</li>
 *   <li>{@code aggregation.remove-record-on-delete}=true makes a {@code -D} (not a {@code -U})
 *       remove the whole row; records after it start a new row;</li>
 *   <li>{@code ignore-delete}=true drops every {@code -U}/{@code -D} record.</li>
 * </ul>
 * Two or more records that are all retractions still yield a row (for example a negative sum),
 * as in Paimon, unless a {@code -D} removed it; a key's lone record never reaches a merge
 * function (see {@code SortedRunMerger}), so a lone retraction is no row.
 */
final class AggregateMergeFunction implements MergeFunction {
  private final Values.Getter[] getters;
  private final List<DataField> fields;
  /** One per column; null for primary-key columns. */
  private final FieldAggregator[] aggregators;
  private final boolean ignoreDelete;
  private final boolean removeRecordOnDelete;

  private final Object[] keyColumns;
  private InternalRow key;
  private long sequence;
  private boolean hasRow;
  /** The value of the {@code -D} that removed the row, while no later record re-created it. */
  private InternalRow removedBy;

  AggregateMergeFunction(List<DataField> fields, FieldAggregator[] aggregators, boolean ignoreDelete,
                         boolean removeRecordOnDelete) {
    this.fields = List.copyOf(fields);
    this.getters = Values.getters(fields);
    this.aggregators = aggregators;
    this.ignoreDelete = ignoreDelete;
    this.removeRecordOnDelete = removeRecordOnDelete;
    this.keyColumns = new Object[fields.size()];
  }

  @Override
  public void reset() {
    clear();
    key = null;
    sequence = 0;
    removedBy = null;
  }

  private void clear() {
    for (FieldAggregator a : aggregators) {
      if (a != null) {
        a.reset();
      }
    }
    Arrays.fill(keyColumns, null);
    hasRow = false;
  }

  @Override
  public void add(KeyValue kv) {
    boolean retract = kv.isRetract();
    if (retract && ignoreDelete) {
      return;
    }
    if (key == null) {
      key = Values.copyKey(kv.key());
    }
    sequence = kv.sequence();
    if (kv.rowKind() == KeyValue.DELETE && removeRecordOnDelete) {
      clear();
      removedBy = Values.copyValueRow(kv.value(), getters, fields);
      return;
    }
    InternalRow row = kv.value();
    if (retract) {
      for (FieldAggregator a : aggregators) {
        if (a != null) {
          a.checkRetract(kv.rowKind()); // refuse before changing anything
        }
      }
    }
    for (int i = 0; i < aggregators.length; i++) {
      Object v = getters[i].get(row);
      FieldAggregator a = aggregators[i];
      if (a == null) {
        if (v != null || !hasRow) {
          keyColumns[i] = Values.copy(fields.get(i).type(), v);
        }
      } else if (retract) {
        a.applyRetract(v, kv.rowKind());
      } else {
        a.agg(v);
      }
    }
    hasRow = true;
    removedBy = null;
  }

  @Override
  public KeyValue result() {
    if (!hasRow) {
      return null;
    }
    Object[] values = new Object[aggregators.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = aggregators[i] == null ? keyColumns[i] : aggregators[i].result();
    }
    return new KeyValue(key, sequence, KeyValue.INSERT, new GenericInternalRow(values));
  }

  @Override
  public KeyValue storedResult() {
    if (!hasRow && removedBy != null) {
      return new KeyValue(key, sequence, KeyValue.DELETE, removedBy);
    }
    return result();
  }
}
