package io.lagoon.core.mergetree.engine;

import static io.lagoon.core.mergetree.engine.EngineTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lagoon.core.types.DataField;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link MergeFunction#storedResult()}: what a compaction that keeps deletes writes for a key.
 * Besides the record itself, every engine must satisfy the property compaction relies on:
 * merging older records with the stored result of newer ones gives the same row as merging all
 * of them at once.
 */
class StoredResultTest {
  static final List<String> PK = List.of("k");
  static final List<DataField> KV = fields("k", INT, "v", BIGINT);

  static KeyValue stored(MergeFunction mf, List<KeyValue> records) {
    mf.reset();
    for (KeyValue r : records) mf.add(r);
    return mf.storedResult();
  }

  /** merge(older ++ stored(newer)) == merge(older ++ newer), compared as result rows. */
  static void assertCompactsLosslessly(Map<String, String> options, List<DataField> fields, List<KeyValue> older,
                                       List<KeyValue> newer) {
    KeyValue s = stored(MergeFunctions.create(options, fields, PK), newer);
    List<KeyValue> viaStored = new ArrayList<>(older);
    if (s != null) viaStored.add(s);
    List<KeyValue> all = new ArrayList<>(older);
    all.addAll(newer);
    assertEquals(values(merge(MergeFunctions.create(options, fields, PK), all), fields),
        values(merge(MergeFunctions.create(options, fields, PK), viaStored), fields),
        "older " + older + " newer " + newer);
  }

  // ------------------------------------------------------------ deduplicate

  @Test
  void deduplicateStoresTheLastRecordEvenWhenItIsADelete() {
    MergeFunction mf = MergeFunctions.create(Map.of(), KV, PK);
    KeyValue d = stored(mf, List.of(ins(1, 1, 10L), del(2, 1, 10L)));
    assertNull(mf.result());
    assertEquals(KeyValue.DELETE, d.rowKind());
    assertEquals(2, d.sequence());
    assertEquals(1, d.key().getInt(0));
    KeyValue u = stored(mf, List.of(ins(1, 1, 10L), ub(2, 1, 10L)));
    assertEquals(KeyValue.UPDATE_BEFORE, u.rowKind());
    assertEquals(list(1, 20L), values(stored(mf, List.of(del(1, 1, 10L), ins(2, 1, 20L))), KV));
    assertNull(stored(mf, List.of()));
    // With ignore-delete the delete never wins.
    MergeFunction ignoring = MergeFunctions.create(opts("ignore-delete", "true"), KV, PK);
    assertEquals(list(1, 10L), values(stored(ignoring, List.of(ins(1, 1, 10L), del(2, 1, 10L))), KV));
    assertNull(stored(ignoring, List.of(del(1, 1, 10L))));
    assertCompactsLosslessly(Map.of(), KV, List.of(ins(1, 1, 10L)), List.of(ins(2, 1, 20L), del(3, 1, 20L)));
  }

  // ------------------------------------------------------------ aggregation

  static final Map<String, String> SUM = opts("merge-engine", "aggregation", "fields.v.aggregate-function", "sum");
  static final Map<String, String> SUM_REMOVING = opts("merge-engine", "aggregation",
      "fields.v.aggregate-function", "sum", "aggregation.remove-record-on-delete", "true");

  @Test
  void aggregationWithRemoveRecordOnDeleteStoresTheDelete() {
    MergeFunction mf = MergeFunctions.create(SUM_REMOVING, KV, PK);
    KeyValue d = stored(mf, List.of(ins(1, 1, 5L), del(2, 1, 5L)));
    assertNull(mf.result());
    assertEquals(KeyValue.DELETE, d.rowKind());
    assertEquals(1, d.key().getInt(0));
    // A record after the delete starts a new row, which is what is stored.
    KeyValue again = stored(mf, List.of(ins(1, 1, 5L), del(2, 1, 5L), ins(3, 1, 7L)));
    assertEquals(KeyValue.INSERT, again.rowKind());
    assertEquals(list(1, 7L), values(again, KV));
    // The stored delete still removes the older rows it shadows.
    assertCompactsLosslessly(SUM_REMOVING, KV, List.of(ins(1, 1, 100L)), List.of(ins(2, 1, 5L), del(3, 1, 5L)));
  }

  @Test
  void aggregationRetractionsWithoutRemovalStoreTheFoldedRow() {
    MergeFunction mf = MergeFunctions.create(SUM, KV, PK);
    assertEquals(list(1, 2L), values(stored(mf, List.of(ins(1, 1, 5L), del(2, 1, 3L))), KV));
    KeyValue onlyRetract = stored(mf, List.of(ub(1, 1, 3L)));
    assertEquals(KeyValue.INSERT, onlyRetract.rowKind());
    assertEquals(list(1, -3L), values(onlyRetract, KV));
    assertCompactsLosslessly(SUM, KV, List.of(ins(1, 1, 10L)), List.of(ub(2, 1, 3L), upd(3, 1, 4L)));
  }

  // ------------------------------------------------------------ partial-update

  static final List<DataField> BOOK = fields("k", INT, "price", DOUBLE, "title", STRING);
  static final Map<String, String> PU_REMOVING = opts("merge-engine", "partial-update",
      "partial-update.remove-record-on-delete", "true");

  @Test
  void partialUpdateWithRemoveRecordOnDeleteStoresTheDelete() {
    MergeFunction mf = MergeFunctions.create(PU_REMOVING, BOOK, PK);
    KeyValue d = stored(mf, List.of(ins(1, 1, 1.0, s("a")), del(2, 1, null, null)));
    assertNull(mf.result());
    assertEquals(KeyValue.DELETE, d.rowKind());
    assertEquals(1, d.key().getInt(0));
    // A -U alone is dropped (its +U follows), so there is nothing to store.
    assertNull(stored(mf, List.of(ub(1, 1, 1.0, s("a")))));
    assertCompactsLosslessly(PU_REMOVING, BOOK, List.of(ins(1, 1, 1.0, s("old"))),
        List.of(ins(2, 1, 2.0, null), del(3, 1, null, null)));
  }

  /**
   * A row removed and re-created within the newer records needs two stored records (the removal
   * and the new row) for one key, which a sorted run cannot hold: the stored +I then folds into
   * the older rows instead of replacing them. Left for the engines to solve (for example a stored
   * row kind that means "replace"); compaction keeps the behaviour documented here.
   */
  @org.junit.jupiter.api.Disabled("known gap: remove-record-on-delete followed by a new row in the same compaction")
  @Test
  void removalFollowedByANewRowShadowsOlderRows() {
    assertCompactsLosslessly(SUM_REMOVING, KV, List.of(ins(1, 1, 100L)), List.of(del(2, 1, 5L), ins(3, 1, 7L)));
    assertCompactsLosslessly(PU_REMOVING, BOOK, List.of(ins(1, 1, 1.0, s("old"))),
        List.of(del(2, 1, null, null), ins(3, 1, null, s("new"))));
  }

  static final List<DataField> GROUPED = fields("k", INT, "a", STRING, "g", INT, "c", STRING);
  static final Map<String, String> PU_GROUP = opts("merge-engine", "partial-update", "fields.g.sequence-group", "a");

  @Test
  void aSequenceGroupSeeingOnlyARetractionStoresTheRowThatRetractsIt() {
    MergeFunction mf = MergeFunctions.create(PU_GROUP, GROUPED, PK);
    KeyValue r = stored(mf, List.of(del(4, 1, s("x"), 5, null)));
    assertNull(mf.result());
    assertEquals(KeyValue.INSERT, r.rowKind());
    assertEquals(1, r.key().getInt(0));
    // The key, the group's new sequence, and the group's column cleared.
    assertEquals(list(1, null, 5, null), values(r, GROUPED));
    // Merged over an older row, it clears the group and leaves other columns alone.
    assertCompactsLosslessly(PU_GROUP, GROUPED, List.of(ins(1, 1, s("old"), 3, s("c0"))),
        List.of(del(4, 1, s("x"), 5, null)));
    // An older retraction (sequence 2 < 3) changes nothing.
    assertCompactsLosslessly(PU_GROUP, GROUPED, List.of(ins(1, 1, s("old"), 3, s("c0"))),
        List.of(del(4, 1, s("x"), 2, null)));
  }

  static final List<DataField> GROUPED_SUM = fields("k", INT, "a", BIGINT, "g", INT);
  static final Map<String, String> PU_GROUP_SUM = opts("merge-engine", "partial-update",
      "fields.g.sequence-group", "a", "fields.a.aggregate-function", "sum");

  @Test
  void anAggregatedSequenceGroupStoresItsRetractedSum() {
    KeyValue r = stored(MergeFunctions.create(PU_GROUP_SUM, GROUPED_SUM, PK), List.of(ub(4, 1, 3L, 5)));
    assertEquals(list(1, -3L, 5), values(r, GROUPED_SUM));
    assertCompactsLosslessly(PU_GROUP_SUM, GROUPED_SUM, List.of(ins(1, 1, 10L, 4)), List.of(ub(4, 1, 3L, 5)));
  }

  // ------------------------------------------------------------ first-row

  @Test
  void firstRowStoresItsResult() {
    Map<String, String> o = opts("merge-engine", "first-row", "ignore-delete", "true");
    MergeFunction mf = MergeFunctions.create(o, KV, PK);
    assertEquals(list(1, 10L), values(stored(mf, List.of(ins(1, 1, 10L), ins(2, 1, 20L), del(3, 1, 10L))), KV));
    assertNull(stored(mf, List.of(del(1, 1, 10L))));
  }
}
