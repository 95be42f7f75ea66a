package io.lagoon.core.mergetree.engine;

import io.lagoon.core.schema.TableSchema;

/**
 * Which row-level statements a primary-key table's merge engine can take, as Paimon decides it.
 * A DELETE (and an UPDATE or MERGE that moves a row to another key, or deletes one) writes
 * retractions, which only some engines apply: deduplicate does; partial-update and aggregation
 * only with their {@code remove-record-on-delete} option; first-row and {@code ignore-delete}
 * drop them. An UPDATE or MERGE writes new row versions, which only deduplicate and
 * partial-update take as replacements: aggregation would fold them into the aggregates and
 * first-row would keep the old row.
 */
public final class RowLevelRules {
  private RowLevelRules() {}

  /** Refuses, with the reason and the option that allows it, a statement that writes retractions. */
  public static void requireDeletes(String table, TableSchema schema, String statement) {
    MergeOptions o = new MergeOptions(schema.options());
    if (o.ignoreDelete()) {
      throw refuse(statement, table, "it has '" + MergeOptions.IGNORE_DELETE + "'='true', so the deletion would be "
          + "dropped silently; unset that option to delete rows");
    }
    switch (o.engine()) {
      case DEDUPLICATE:
        return;
      case PARTIAL_UPDATE:
        if (o.bool(MergeOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE, false)) return;
        throw refuse(statement, table, "its merge engine 'partial-update' ignores deletions unless '"
            + MergeOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE + "'='true' is set");
      case AGGREGATION:
        if (o.bool(MergeOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE, false)) return;
        throw refuse(statement, table, "its merge engine 'aggregation' would retract the values from the aggregates "
            + "instead of removing the row; set '" + MergeOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE
            + "'='true' to remove rows");
      case FIRST_ROW:
        throw refuse(statement, table, "its merge engine 'first-row' keeps the first row of every key and ignores "
            + "deletions; no option changes that");
      default:
        throw new IllegalStateException(o.engine().name());
    }
  }

  /** Refuses an UPDATE or MERGE on an engine that does not take new row versions as replacements. */
  public static void requireUpdates(String table, TableSchema schema, String statement) {
    MergeEngine engine = new MergeOptions(schema.options()).engine();
    if (engine == MergeEngine.AGGREGATION) {
      throw refuse(statement, table, "its merge engine 'aggregation' would fold the new values into the aggregates "
          + "instead of replacing them (insert the changes as new rows to aggregate them)");
    }
    if (engine == MergeEngine.FIRST_ROW) {
      throw refuse(statement, table, "its merge engine 'first-row' keeps the first row of every key, so an "
          + "update would never show");
    }
  }

  private static UnsupportedOperationException refuse(String statement, String table, String why) {
    return new UnsupportedOperationException(statement + " is not supported on primary-key table " + table + ": " + why);
  }
}
