package io.lagoon.core.mergetree.engine;

/**
 * Merges all records of one primary key into one result. A reader calls {@link #reset()}, then
 * {@link #add(KeyValue)} once per record in merge order (see {@link RecordOrder}), then
 * {@link #result()}. Implementations copy every value they keep, so the caller may reuse the rows
 * it passes in; the rows of a returned result are owned by the caller and never change afterwards.
 * Instances are not thread-safe; use one per reader.
 */
public interface MergeFunction {
  /** Forgets everything added so far; call before the first record of each key. */
  void reset();

  /**
   * Adds the next record of the current key, in merge order.
   *
   * @throws IllegalStateException when the engine refuses the record (for example a {@code -D}
   *     on a first-row table without {@code ignore-delete}); the message names the option to set
   */
  void add(KeyValue kv);

  /**
   * The merged record of the current key, or null when the key is absent (deleted, or only
   * retractions were seen). May be called more than once.
   */
  KeyValue result();

  /**
   * The record to store for the current key when older records of the key may live in files not
   * merged here (a write flush, or a compaction that keeps deletes). Unlike {@link #result()} it
   * never hides a removal: a key deleted by a retraction comes back as a {@code -D} record carrying
   * the key, so it still shadows older files, and a partial-update key that saw only retractions
   * comes back as the {@code +I} row that retracts its sequence groups. Null only when every
   * record was ignored or none was added.
   */
  default KeyValue storedResult() {
    return result();
  }

  /**
   * Whether the merged record of a key is simply its last record in merge order (deduplicate
   * without {@code ignore-delete}), so a merge over records that stay valid may take it as is.
   */
  default boolean resultIsLastRecord() {
    return false;
  }

  /** Convenience: resets, adds every record in iteration order and returns the result. */
  default KeyValue merge(Iterable<KeyValue> records) {
    reset();
    for (KeyValue kv : records) {
      add(kv);
    }
    return result();
  }
}
