package io.lagoon.core.mergetree.engine;

import static io.lagoon.core.mergetree.engine.EngineTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lagoon.core.types.DataField;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PartialUpdateMergeFunctionTest {
  static final List<String> PK = List.of("k");

  static MergeFunction mf(List<DataField> f, String... extra) {
    String[] o = new String[extra.length + 2];
    o[0] = "merge-engine";
    o[1] = "partial-update";
    System.arraycopy(extra, 0, o, 2, extra.length);
    return MergeFunctions.create(opts(o), f, PK);
  }

  // ------------------------------------------------------------ without sequence groups

  static final List<DataField> BOOK = fields("k", INT, "price", DOUBLE, "stock", INT, "title", STRING);

  @Test
  void nonNullValuesFillInAndNullsNeverOverwrite() {
    // The example on Paimon's "Partial Update" page.
    KeyValue r = merge(mf(BOOK), List.of(ins(1, 1, 23.0, 10, null), ins(2, 1, null, null, s("This is a book")),
        ins(3, 1, 25.2, null, null)));
    assertEquals(list(1, 25.2, 10, "This is a book"), values(r, BOOK));
    assertEquals(KeyValue.INSERT, r.rowKind());
    assertEquals(3, r.sequence());
  }

  @Test
  void updateAfterRecordsAlsoFillIn() {
    KeyValue r = merge(mf(BOOK), List.of(ins(1, 1, 1.0, null, null), upd(2, 1, null, 5, null)));
    assertEquals(list(1, 1.0, 5, null), values(r, BOOK));
  }

  @Test
  void refusesRetractionsByDefault() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> merge(mf(BOOK), List.of(ins(1, 1, 1.0, 1, s("a")), del(2, 1, null, null, null))));
    assertTrue(e.getMessage().contains("ignore-delete"), e.getMessage());
    assertTrue(e.getMessage().contains("partial-update.remove-record-on-delete"), e.getMessage());
    assertTrue(e.getMessage().contains("sequence-group"), e.getMessage());
    assertThrows(IllegalStateException.class, () -> merge(mf(BOOK), List.of(ub(1, 1, 1.0, 1, s("a")))));
  }

  @Test
  void ignoreDeleteDropsRetractions() {
    MergeFunction m = mf(BOOK, "ignore-delete", "true");
    assertEquals(list(1, 1.0, 1, "a"),
        values(merge(m, List.of(ins(1, 1, 1.0, 1, s("a")), del(2, 1, null, null, null), ub(3, 1, 1.0, 1, s("a")))), BOOK));
    assertNull(merge(m, List.of(del(1, 1, 1.0, 1, s("a")))));
    assertEquals(list(1, 2.0, 1, "a"),
        values(merge(mf(BOOK, "partial-update.ignore-delete", "true"),
            List.of(ins(1, 1, 1.0, 1, s("a")), del(2, 1, null, null, null), ins(3, 1, 2.0, null, null))), BOOK));
  }

  @Test
  void removeRecordOnDeleteRemovesTheWholeRow() {
    MergeFunction m = mf(BOOK, "partial-update.remove-record-on-delete", "true");
    assertNull(merge(m, List.of(ins(1, 1, 1.0, 1, s("a")), del(2, 1, null, null, null))));
    // After the delete the row starts over: old columns do not come back.
    assertEquals(list(1, null, 7, null),
        values(merge(m, List.of(ins(1, 1, 1.0, 1, s("a")), del(2, 1, null, null, null), ins(3, 1, null, 7, null))), BOOK));
    // -U is dropped: the +U that follows it carries the update.
    assertEquals(list(1, 1.0, 2, "a"),
        values(merge(m, List.of(ins(1, 1, 1.0, 1, s("a")), ub(2, 1, 1.0, 1, s("a")), upd(3, 1, null, 2, null))), BOOK));
    assertNull(merge(m, List.of(ub(1, 1, 1.0, 1, s("a")))));
  }

  @Test
  void copiesRowsAReaderReuses() {
    KeyValue r = mergeReusing(mf(BOOK), BOOK, List.of(ins(1, 1, null, null, s("a long title here")),
        ins(2, 1, 3.5, null, null), ins(3, 1, null, 4, null)));
    assertEquals(list(1, 3.5, 4, "a long title here"), values(r, BOOK));
  }

  @Test
  void resultSurvivesLaterMerges() {
    MergeFunction m = mf(BOOK);
    m.reset();
    m.add(ins(1, 1, 1.0, null, s("a")));
    KeyValue first = m.result();
    m.add(ins(2, 1, 2.0, 3, s("b")));
    assertEquals(list(1, 1.0, null, "a"), values(first, BOOK));
    assertEquals(list(1, 2.0, 3, "b"), values(m.result(), BOOK));
  }

  // ------------------------------------------------------------ sequence groups

  static final List<DataField> T = fields("k", INT, "a", INT, "b", INT, "g_1", INT, "c", INT, "d", INT, "g_2", INT);

  @Test
  void sequenceGroupsFromTheDocs() {
    MergeFunction m = mf(T, "fields.g_1.sequence-group", "a,b", "fields.g_2.sequence-group", "c,d");
    List<KeyValue> recs = new ArrayList<>();
    recs.add(ins(1, 1, 1, 1, 1, 1, 1, 1));
    recs.add(ins(2, 1, 2, 2, 2, 2, 2, null)); // g_2 is null: c, d not updated
    assertEquals(list(1, 2, 2, 2, 1, 1, 1), values(merge(m, recs), T));
    recs.add(ins(3, 1, 3, 3, 1, 3, 3, 3)); // g_1 is smaller: a, b not updated
    assertEquals(list(1, 2, 2, 2, 3, 3, 3), values(merge(m, recs), T));
  }

  @Test
  void acceptedGroupWritesNullsToo() {
    MergeFunction m = mf(T, "fields.g_1.sequence-group", "a,b");
    assertEquals(list(1, null, 5, 2, null, null, null),
        values(merge(m, List.of(ins(1, 1, 1, 1, 1, null, null, null), ins(2, 1, null, 5, 2, null, null, null))), T));
  }

  @Test
  void equalSequenceUpdatesAsTheLaterRecord() {
    MergeFunction m = mf(T, "fields.g_1.sequence-group", "a,b");
    assertEquals(list(1, 9, 9, 1, null, null, null),
        values(merge(m, List.of(ins(1, 1, 1, 1, 1, null, null, null), ins(2, 1, 9, 9, 1, null, null, null))), T));
  }

  @Test
  void outOfOrderGroupsResolvePerGroup() {
    MergeFunction m = mf(T, "fields.g_1.sequence-group", "a,b", "fields.g_2.sequence-group", "c,d");
    // Stream 1 writes (a, b, g_1), stream 2 writes (c, d, g_2); they arrive interleaved and late.
    List<KeyValue> recs = List.of(
        ins(1, 1, 10, 10, 10, null, null, null),
        ins(2, 1, null, null, null, 20, 20, 20),
        ins(3, 1, 5, 5, 5, null, null, null),       // late for group 1
        ins(4, 1, null, null, null, 30, null, 30),   // newer for group 2, d becomes null
        ins(5, 1, null, null, null, 25, 25, 25));    // late for group 2
    assertEquals(list(1, 10, 10, 10, 30, null, 30), values(merge(m, recs), T));
  }

  static final List<DataField> SG =
      fields("k", INT, "a", INT, "b", INT, "g_1", INT, "c", INT, "d", INT, "g_2", INT, "g_3", INT);

  @Test
  void multiFieldSequenceGroupFromTheDocs() {
    MergeFunction m = mf(SG, "fields.g_1.sequence-group", "a,b", "fields.g_2,g_3.sequence-group", "c,d");
    List<KeyValue> recs = new ArrayList<>();
    recs.add(ins(1, 1, 1, 1, 1, 1, 1, 1, 1));
    recs.add(ins(2, 1, 2, 2, 2, 2, 2, 1, null));
    assertEquals(list(1, 2, 2, 2, 1, 1, 1, 1), values(merge(m, recs), SG));
    recs.add(ins(3, 1, 3, 3, 1, 3, 3, 3, 1));
    assertEquals(list(1, 2, 2, 2, 3, 3, 3, 1), values(merge(m, recs), SG));
  }

  static final List<DataField> T5 = fields("k", INT, "a", INT, "b", INT, "c", INT, "d", INT);

  @Test
  void aggregationInsideSequenceGroupsFromTheDocs() {
    MergeFunction m = mf(T5, "fields.a.sequence-group", "b", "fields.b.aggregate-function", "first_value",
        "fields.c.sequence-group", "d", "fields.d.aggregate-function", "sum");
    KeyValue r = merge(m, List.of(ins(1, 1, 1, 1, null, null), ins(2, 1, null, null, 1, 1),
        ins(3, 1, 2, 2, null, null), ins(4, 1, null, null, 2, 2)));
    assertEquals(list(1, 2, 1, 2, 3), values(r, T5));
  }

  @Test
  void defaultAggregateFunctionFromTheDocs() {
    MergeFunction m = mf(T5, "fields.a.sequence-group", "b", "fields.c.sequence-group", "d",
        "fields.default-aggregate-function", "last_non_null_value", "fields.d.aggregate-function", "sum");
    KeyValue r = merge(m, List.of(ins(1, 1, 1, 1, null, null), ins(2, 1, null, null, 1, 1),
        ins(3, 1, 2, 2, null, null), ins(4, 1, null, null, 2, 2)));
    assertEquals(list(1, 2, 2, 2, 3), values(r, T5));
  }

  @Test
  void defaultLastNonNullKeepsValuesAcceptedNullsWouldClear() {
    MergeFunction plain = mf(T5, "fields.a.sequence-group", "b");
    MergeFunction agg = mf(T5, "fields.a.sequence-group", "b", "fields.default-aggregate-function", "last_non_null_value");
    List<KeyValue> recs = List.of(ins(1, 1, 1, 7, null, null), ins(2, 1, 2, null, null, null));
    assertEquals(list(1, 2, null, null, null), values(merge(plain, recs), T5));
    assertEquals(list(1, 2, 7, null, null), values(merge(agg, recs), T5));
  }

  static final List<DataField> AGG =
      fields("k", INT, "a", INT, "b", INT, "g_1", INT, "c", STRING, "g_2", INT, "g_3", INT);

  @Test
  void olderSequenceStillFeedsOrderIndependentAggregates() {
    // The AGG example on the "Partial Update" page: sum keeps adding even when (g_1, g_3) is older.
    MergeFunction m = mf(AGG, "fields.a.aggregate-function", "sum", "fields.g_1,g_3.sequence-group", "a",
        "fields.g_2.sequence-group", "c");
    List<KeyValue> recs = new ArrayList<>();
    recs.add(ins(1, 1, 1, 1, 1, s("1"), 1, 1));
    recs.add(ins(2, 1, 2, 2, 2, s("2"), null, 2));
    assertEquals(list(1, 3, 2, 2, "1", 1, 2), values(merge(m, recs), AGG));
    recs.add(ins(3, 1, 3, 3, 2, s("3"), 3, 1));
    assertEquals(list(1, 6, 3, 2, "3", 3, 2), values(merge(m, recs), AGG));
  }

  @Test
  void olderSequenceOrdersOrderDependentAggregates() {
    List<DataField> f = fields("k", INT, "g", INT, "first", INT, "last", INT, "list", STRING);
    MergeFunction m = mf(f, "fields.g.sequence-group", "first,last,list", "fields.first.aggregate-function", "first_value",
        "fields.last.aggregate-function", "last_value", "fields.list.aggregate-function", "listagg");
    KeyValue r = merge(m, List.of(ins(1, 1, 5, 50, 50, s("five")), ins(2, 1, 3, 30, 30, s("three")),
        ins(3, 1, 7, 70, 70, s("seven"))));
    // In sequence-group order the records are 3, 5, 7.
    assertEquals(list(1, 7, 30, 70, "three,five,seven"), values(r, f));
  }

  @Test
  void retractionWithSequenceGroupsNullsTheGroup() {
    MergeFunction m = mf(T, "fields.g_1.sequence-group", "a,b", "fields.g_2.sequence-group", "c,d");
    List<KeyValue> recs = new ArrayList<>(List.of(ins(1, 1, 1, 1, 1, 2, 2, 2)));
    recs.add(del(2, 1, null, null, 3, null, null, null)); // retract group 1 at g_1 = 3
    assertEquals(list(1, null, null, 3, 2, 2, 2), values(merge(m, recs), T));
    recs.add(ins(3, 1, 8, 8, 2, null, null, null));       // older than the retraction: ignored
    assertEquals(list(1, null, null, 3, 2, 2, 2), values(merge(m, recs), T));
    recs.add(ub(4, 1, null, null, null, null, null, 1));   // older retraction of group 2: ignored
    assertEquals(list(1, null, null, 3, 2, 2, 2), values(merge(m, recs), T));
    recs.add(ins(5, 1, 9, 9, 4, null, null, null));
    assertEquals(list(1, 9, 9, 4, 2, 2, 2), values(merge(m, recs), T));
  }

  @Test
  void retractionsAloneLeaveNoRow() {
    MergeFunction m = mf(T, "fields.g_1.sequence-group", "a,b");
    assertNull(merge(m, List.of(del(1, 1, 1, 1, 1, null, null, null))));
  }

  @Test
  void retractionWithAggregatesInSequenceGroups() {
    List<DataField> f = fields("k", INT, "g", INT, "total", BIGINT, "last", STRING, "top", INT);
    MergeFunction m = mf(f, "fields.g.sequence-group", "total,last,top", "fields.total.aggregate-function", "sum",
        "fields.last.aggregate-function", "last_value", "fields.top.aggregate-function", "max",
        "fields.top.ignore-retract", "true");
    KeyValue r = merge(m, List.of(ins(1, 1, 1, 10L, s("x"), 5), ins(2, 1, 2, 20L, s("y"), 9),
        ub(3, 1, 3, 5L, s("y"), 9), ub(4, 1, 1, 1L, s("x"), 5)));
    // -U at g=3: sum subtracts, last_value nulls, max ignores. Older -U at g=1: sum subtracts only.
    assertEquals(list(1, 3, 24L, null, 9), values(r, f));
  }

  @Test
  void retractionOfANonRetractableAggregateFails() {
    List<DataField> f = fields("k", INT, "g", INT, "top", INT);
    MergeFunction m = mf(f, "fields.g.sequence-group", "top", "fields.top.aggregate-function", "max");
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> merge(m, List.of(ins(1, 1, 1, 5), del(2, 1, 2, 5))));
    assertTrue(e.getMessage().contains("fields.top.ignore-retract"), e.getMessage());
    assertTrue(e.getMessage().contains("max"), e.getMessage());
  }

  @Test
  void removeRecordOnSequenceGroup() {
    MergeFunction m = mf(T, "fields.g_1.sequence-group", "a,b", "fields.g_2.sequence-group", "c,d",
        "partial-update.remove-record-on-sequence-group", "g_1");
    List<KeyValue> base = List.of(ins(1, 1, 1, 1, 5, 2, 2, 2));
    List<KeyValue> recs = new ArrayList<>(base);
    recs.add(del(2, 1, null, null, 6, null, null, null));
    assertNull(merge(m, recs));
    recs.add(ins(3, 1, null, null, null, 7, 7, 7)); // a fresh row after the removal
    assertEquals(list(1, null, null, null, 7, 7, 7), values(merge(m, recs), T));
    // An older -D of the group does not remove the row; it is ignored.
    recs = new ArrayList<>(base);
    recs.add(del(2, 1, null, null, 4, null, null, null));
    assertEquals(list(1, 1, 1, 5, 2, 2, 2), values(merge(m, recs), T));
    // A -D of the other group only retracts that group.
    recs = new ArrayList<>(base);
    recs.add(del(2, 1, null, null, null, null, null, 3));
    assertEquals(list(1, 1, 1, 5, null, null, 3), values(merge(m, recs), T));
    // A -U of the removing group retracts but does not remove.
    recs = new ArrayList<>(base);
    recs.add(ub(2, 1, null, null, 6, null, null, null));
    assertEquals(list(1, null, null, 6, 2, 2, 2), values(merge(m, recs), T));
  }

  @Test
  void ignoreDeleteWinsOverSequenceGroupRetraction() {
    MergeFunction m = mf(T, "fields.g_1.sequence-group", "a,b", "ignore-delete", "true");
    assertEquals(list(1, 1, 1, 1, null, null, null),
        values(merge(m, List.of(ins(1, 1, 1, 1, 1, null, null, null), del(2, 1, null, null, 3, null, null, null))), T));
  }

  @Test
  void groupsCopyRowsAReaderReuses() {
    List<DataField> f = fields("k", INT, "g", BIGINT, "name", STRING, "tags", STRING, "other", STRING);
    MergeFunction m = mf(f, "fields.g.sequence-group", "name,tags", "fields.tags.aggregate-function", "listagg");
    KeyValue r = mergeReusing(m, f, List.of(ins(1, 1, 1L, s("alpha-name"), s("t1"), s("other-1")),
        ins(2, 1, 3L, s("gamma-name"), s("t3"), null), ins(3, 1, 2L, s("beta-name"), s("t2"), null)));
    // The late record (g = 2) goes before everything aggregated so far.
    assertEquals(list(1, 3L, "gamma-name", "t2,t1,t3", "other-1"), values(r, f));
  }

  @Test
  void sequenceFieldOrderingComposesWithPartialUpdate() {
    List<DataField> f = fields("k", INT, "a", STRING, "b", STRING, "ts", BIGINT);
    Map<String, String> o = opts("merge-engine", "partial-update", "sequence.field", "ts");
    List<KeyValue> recs = new ArrayList<>(List.of(ins(1, 1, s("new-a"), null, 20L), ins(2, 1, s("old-a"), s("old-b"), 10L)));
    RecordOrder.create(o, f).sort(recs);
    assertEquals(list(1, "new-a", "old-b", 20L), values(MergeFunctions.create(o, f, PK).merge(recs), f));
  }
}
