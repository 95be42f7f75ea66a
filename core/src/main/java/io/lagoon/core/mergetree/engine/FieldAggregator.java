package io.lagoon.core.mergetree.engine;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;

/**
 * The running aggregate of one column over the records of one key. Values handed in are raw
 * Catalyst values read from a row that may be reused; an aggregator copies whatever it keeps and
 * never mutates a value after exposing it from {@link #result()}.
 */
abstract class FieldAggregator {
  final String function;
  final DataField field;
  final PaimonType type;
  private final boolean ignoreRetract;

  Object acc;
  /** Whether any value (null included) has been aggregated since the last reset. */
  boolean seen;

  FieldAggregator(String function, DataField field, boolean ignoreRetract) {
    this.function = function;
    this.field = field;
    this.type = field.type();
    this.ignoreRetract = ignoreRetract;
  }

  void reset() {
    acc = null;
    seen = false;
  }

  Object result() {
    return acc;
  }

  /** Aggregates a value arriving after everything aggregated so far. */
  abstract void agg(Object in);

  /**
   * Aggregates a value that belongs before everything aggregated so far (a partial-update record
   * whose sequence group is older than the stored one). Order-independent functions just
   * aggregate.
   */
  void aggReversed(Object in) {
    agg(in);
  }

  /** Whether the function can undo a contribution (Paimon: sum, product, collect, merge_map, last_value, last_non_null_value). */
  boolean supportsRetract() {
    return false;
  }

  /** Whether undoing a contribution does not depend on where it sits in the order. */
  boolean retractIsOrderIndependent() {
    return false;
  }

  /** Undoes a contribution; only called when {@link #supportsRetract()}. */
  void retract(Object in) {
    throw new UnsupportedOperationException(function);
  }

  /**
   * Applies a {@code -U}/{@code -D} value: ignored under {@code fields.<f>.ignore-retract},
   * retracted when the function can, otherwise an error naming the option to set.
   */
  final void applyRetract(Object in, byte rowKind) {
    if (ignoreRetract) {
      return;
    }
    checkRetract(rowKind);
    retract(in);
  }

  /** Throws unless a retraction can be applied (supported, or ignored by option). */
  final void checkRetract(byte rowKind) {
    if (!ignoreRetract && !supportsRetract()) {
      throw new IllegalStateException("Aggregate function '" + function + "' of column '" + field.name()
          + "' cannot retract a " + KeyValue.kindName(rowKind) + " record: only sum, product, collect, merge_map, "
          + "last_value and last_non_null_value support retraction. Set '"
          + MergeOptions.fieldKey(field.name(), MergeOptions.IGNORE_RETRACT_SUFFIX)
          + "'='true' to ignore retractions for this column, or '" + MergeOptions.IGNORE_DELETE
          + "'='true' to drop -U/-D records");
    }
  }

  /** Applies a retraction of a value older than the stored state (partial-update sequence groups). */
  final void applyRetractReversed(Object in, byte rowKind) {
    if (ignoreRetract) {
      return;
    }
    if (supportsRetract() && !retractIsOrderIndependent()) {
      return; // last_value-like: the retracted value is not the one currently kept
    }
    applyRetract(in, rowKind);
  }
}
