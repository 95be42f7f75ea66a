package io.lagoon.core.mergetree;

import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.mergetree.engine.MergeFunction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * Merges sorted runs of key-value records (each ascending by key) into one record per key:
 * a k-way merge over the runs' heads, gathering every record of the smallest key, ordering them
 * (by sequence number, or the table's {@code sequence.field}), and reducing them with the
 * table's merge function. By default keys whose merge result is absent or a retraction are
 * dropped, which is right only when nothing older than the merged runs exists (a read of the
 * whole bucket, or a compaction into the bottom of it). {@link #keepingDeletes} keeps them as
 * stored records instead, so they still shadow older files that were not merged.
 *
 * <p>A merger may also be given lookup runs ({@link #withLookups}): older records that take part
 * in the merge of a key the other runs hold, and are reported to a listener when they do, but
 * whose keys alone produce nothing. Deletion-vector compaction merges level-0 records with the
 * record of the same key in the levels above this way, and marks that older record deleted.
 *
 * <p>Each run must hold a key at most once (the LSM invariant). A returned record may point at a
 * run's reused rows: it is valid until the next call to {@code hasNext} or {@code next}.
 */
public final class SortedRunMerger implements Iterator<KeyValue> {
  private final PriorityQueue<Head> heads;
  private final KeyComparator keys;
  private final Comparator<KeyValue> recordOrder;
  private final MergeFunction merge;
  private final boolean keepDeletes;
  private final List<KeyValue> group = new ArrayList<>();
  /** Heads whose records the last key used; they advance when the next key is asked for. */
  private final List<Head> consumed = new ArrayList<>();
  private final boolean lastRecordWins;
  private final Consumer<Iterator<KeyValue>> lookupHit;
  private KeyValue next;

  /** The current record of one run, and its key as a long when keys are one integral field. */
  private static final class Head {
    final Iterator<KeyValue> run;
    final KeyComparator keys;
    final boolean lookup;
    KeyValue current;
    long longKey;

    Head(Iterator<KeyValue> run, KeyComparator keys, boolean lookup) {
      this.run = run;
      this.keys = keys;
      this.lookup = lookup;
      take(run.next());
    }

    boolean advance() {
      if (!run.hasNext()) return false;
      take(run.next());
      return true;
    }

    private void take(KeyValue kv) {
      current = kv;
      // Read once here rather than at each of the heap's comparisons.
      if (keys.singleIntegralKey()) longKey = keys.longKey(kv.key());
    }

    boolean sameKey(Head other) {
      return keys.singleIntegralKey() ? longKey == other.longKey : keys.compare(current.key(), other.current.key()) == 0;
    }
  }

  public SortedRunMerger(List<Iterator<KeyValue>> runs, KeyComparator keys, Comparator<KeyValue> recordOrder,
                         MergeFunction merge) {
    this(runs, keys, recordOrder, merge, false);
  }

  /**
   * A merger that emits {@link MergeFunction#storedResult()} for every key, retractions included,
   * for writing runs that sit above older data.
   */
  public static SortedRunMerger keepingDeletes(List<Iterator<KeyValue>> runs, KeyComparator keys,
                                               Comparator<KeyValue> recordOrder, MergeFunction merge) {
    return new SortedRunMerger(runs, keys, recordOrder, merge, true);
  }

  /**
   * A merger that drops retractions, over {@code runs} plus {@code lookups}: a key only lookup
   * runs hold is skipped; a key the runs hold is merged with the lookup records of the key, each
   * reported to {@code hit} (given its run, still positioned on it) before the result is returned.
   */
  public static SortedRunMerger withLookups(List<? extends Iterator<KeyValue>> runs,
                                            List<? extends Iterator<KeyValue>> lookups, KeyComparator keys,
                                            Comparator<KeyValue> recordOrder, MergeFunction merge,
                                            Consumer<Iterator<KeyValue>> hit) {
    return new SortedRunMerger(runs, lookups, keys, recordOrder, merge, false, hit);
  }

  private SortedRunMerger(List<Iterator<KeyValue>> runs, KeyComparator keys, Comparator<KeyValue> recordOrder,
                          MergeFunction merge, boolean keepDeletes) {
    this(runs, List.of(), keys, recordOrder, merge, keepDeletes, null);
  }

  private SortedRunMerger(List<? extends Iterator<KeyValue>> runs, List<? extends Iterator<KeyValue>> lookups,
                          KeyComparator keys, Comparator<KeyValue> recordOrder, MergeFunction merge,
                          boolean keepDeletes, Consumer<Iterator<KeyValue>> lookupHit) {
    this.keepDeletes = keepDeletes;
    this.lookupHit = lookupHit;
    this.keys = keys;
    this.recordOrder = recordOrder;
    this.merge = merge;
    this.lastRecordWins = merge.resultIsLastRecord();
    Comparator<Head> order = keys.singleIntegralKey()
        ? (a, b) -> a.longKey != b.longKey ? Long.compare(a.longKey, b.longKey)
            : Long.compare(a.current.sequence(), b.current.sequence())
        : (a, b) -> {
          int c = keys.compare(a.current.key(), b.current.key());
          return c != 0 ? c : Long.compare(a.current.sequence(), b.current.sequence());
        };
    this.heads = new PriorityQueue<>(Math.max(1, runs.size() + lookups.size()), order);
    for (Iterator<KeyValue> r : runs) if (r.hasNext()) heads.add(new Head(r, keys, false));
    for (Iterator<KeyValue> r : lookups) if (r.hasNext()) heads.add(new Head(r, keys, true));
  }

  @Override
  public boolean hasNext() {
    while (next == null && (!heads.isEmpty() || !consumed.isEmpty())) next = mergeNextKey();
    return next != null;
  }

  @Override
  public KeyValue next() {
    if (!hasNext()) throw new NoSuchElementException();
    KeyValue out = next;
    next = null;
    return out;
  }

  private KeyValue mergeNextKey() {
    advanceConsumed();
    if (heads.isEmpty()) return null;
    group.clear();
    Head first = heads.poll();
    consumed.add(first);
    group.add(first.current);
    // A sorted run holds each key once, so a key's records are the heads that share it. Heads
    // advance only when the next key is asked for: until then every record stays valid and
    // nothing needs copying.
    while (!heads.isEmpty() && heads.peek().sameKey(first)) {
      Head h = heads.poll();
      consumed.add(h);
      group.add(h.current);
    }
    if (lookupHit != null && !takeLookups()) return null;
    if (group.size() == 1) {
      // As Paimon: a key's only record is passed through unmerged; a lone retraction is dropped
      // by a read and kept by a compaction that keeps deletes.
      KeyValue only = first.current;
      return keepDeletes || only.isAdd() ? only : null;
    }
    group.sort(recordOrder);
    if (lastRecordWins) {
      // Records stay valid until the next key: take the winner without copying it.
      KeyValue last = group.get(group.size() - 1);
      return keepDeletes || last.isAdd() ? last : null;
    }
    merge.reset();
    for (KeyValue kv : group) merge.add(kv);
    if (keepDeletes) return merge.storedResult();
    KeyValue result = merge.result();
    return result == null || result.isRetract() ? null : result;
  }

  /**
   * Reports the key's lookup records, which the merge result replaces; false when the key has
   * nothing to write: only lookup runs hold it, or the newest record wins and that is a looked-up
   * one (a concurrent writer can leave a newer sequence number above than a later write brings),
   * in which case that record stays where it is, live, and the newer runs' records of it go.
   */
  private boolean takeLookups() {
    boolean own = false;
    for (Head h : consumed) own |= !h.lookup;
    if (!own) return false;
    if (lastRecordWins) {
      group.sort(recordOrder);
      KeyValue winner = group.get(group.size() - 1);
      for (Head h : consumed) if (h.lookup && h.current == winner) return false;
    }
    for (Head h : consumed) if (h.lookup) lookupHit.accept(h.run);
    return true;
  }

  private void advanceConsumed() {
    for (Head h : consumed) if (h.advance()) heads.add(h);
    consumed.clear();
  }

}
