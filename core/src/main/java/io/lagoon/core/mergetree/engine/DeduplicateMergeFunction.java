package io.lagoon.core.mergetree.engine;

import io.lagoon.core.types.DataField;
import java.util.List;

/**
 * {@code merge-engine} = {@code deduplicate} (the default): the last record in merge order wins.
 *
 * <p>Paimon docs ("Merge Engine / Overview"): the engine "will only keep the latest record and
 * throw away other records with the same primary keys"; "if the latest record is a DELETE record,
 * all records with the same primary keys will be deleted"; {@code ignore-delete} ignores it.
 * Lagoon treats {@code -U} like {@code -D} here (both retract the row), and under
 * {@code ignore-delete}=true drops every {@code -U}/{@code -D} record before it can win, so the
 * latest {@code +I}/{@code +U} is the result.
 *
 * <p>The result is a copy of the winning record, row kind included ({@code +I} or {@code +U}).
 */
final class DeduplicateMergeFunction implements MergeFunction {
  private final boolean ignoreDelete;
  private final List<DataField> fields;
  private final Values.Getter[] getters;
  private KeyValue latest;

  DeduplicateMergeFunction(List<DataField> fields, boolean ignoreDelete) {
    this.ignoreDelete = ignoreDelete;
    this.fields = List.copyOf(fields);
    this.getters = Values.getters(fields);
  }

  @Override
  public void reset() {
    latest = null;
  }

  @Override
  public void add(KeyValue kv) {
    if (kv.isRetract() && ignoreDelete) {
      return;
    }
    // Copy eagerly: the reader may overwrite the rows as soon as add returns.
    latest = new KeyValue(Values.copyKey(kv.key()), kv.sequence(), kv.rowKind(),
          Values.copyValueRow(kv.value(), getters, fields));
  }

  @Override
  public KeyValue result() {
    return latest == null || latest.isRetract() ? null : latest;
  }

  @Override
  public KeyValue storedResult() {
    return latest;
  }

  @Override
  public boolean resultIsLastRecord() {
    return !ignoreDelete;
  }
}
