package io.lagoon.core.mergetree.engine;

import io.lagoon.core.types.DataField;
import java.util.List;

/**
 * {@code merge-engine} = {@code first-row}: the first record in merge order (the lowest sequence
 * number) wins; later records of the key are ignored.
 *
 * <p>Paimon docs ("First Row"): the engine keeps "the first row of the same primary key"; it
 * does "not accept DELETE and UPDATE_BEFORE message", and {@code ignore-delete} makes it ignore
 * them; {@code sequence.field} cannot be specified (checked by {@link MergeFunctions}). So a
 * {@code -U}/{@code -D} record is an error unless {@code ignore-delete}=true, which drops it.
 */
final class FirstRowMergeFunction implements MergeFunction {
  private final boolean ignoreDelete;
  private final List<DataField> fields;
  private final Values.Getter[] getters;
  private KeyValue first;

  FirstRowMergeFunction(List<DataField> fields, boolean ignoreDelete) {
    this.ignoreDelete = ignoreDelete;
    this.fields = List.copyOf(fields);
    this.getters = Values.getters(fields);
  }

  @Override
  public void reset() {
    first = null;
  }

  @Override
  public void add(KeyValue kv) {
    if (kv.isRetract()) {
      if (ignoreDelete) {
        return;
      }
      throw new IllegalStateException("The first-row merge engine does not accept " + KeyValue.kindName(kv.rowKind())
          + " records (sequence " + kv.sequence() + "); set table option '" + MergeOptions.IGNORE_DELETE
          + "'='true' to ignore -U/-D records");
    }
    if (first == null) {
      first = new KeyValue(Values.copyKey(kv.key()), kv.sequence(), kv.rowKind(),
          Values.copyValueRow(kv.value(), getters, fields));
    }
  }

  @Override
  public KeyValue result() {
    return first;
  }
}
