package io.lagoon.core.mergetree.engine;

import static io.lagoon.core.mergetree.engine.EngineTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lagoon.core.types.DataField;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeduplicateMergeFunctionTest {
  static final List<DataField> F = fields("id", INT, "name", STRING, "amount", BIGINT);
  static final List<String> PK = List.of("id");

  static MergeFunction mf(String... options) {
    return MergeFunctions.create(opts(options), F, PK);
  }

  @Test
  void isTheDefaultEngine() {
    assertTrue(MergeFunctions.create(Map.of(), F, PK) instanceof DeduplicateMergeFunction);
    assertTrue(mf("merge-engine", "Deduplicate") instanceof DeduplicateMergeFunction);
  }

  @Test
  void lastRecordWins() {
    KeyValue r = merge(mf(), List.of(ins(1, 1, s("a"), 10L), upd(2, 1, s("b"), null), upd(3, 1, s("c"), 30L)));
    assertEquals(list(1, "c", 30L), values(r, F));
    assertEquals(KeyValue.UPDATE_AFTER, r.rowKind());
    assertEquals(3, r.sequence());
    assertEquals(1, r.key().getInt(0));
  }

  @Test
  void laterNullsOverwrite() {
    assertEquals(list(1, null, null), values(merge(mf(), List.of(ins(1, 1, s("a"), 10L), ins(2, 1, null, null))), F));
  }

  @Test
  void singleRecordIsReturned() {
    assertEquals(list(7, "x", 1L), values(merge(mf(), List.of(ins(5, 7, s("x"), 1L))), F));
  }

  @Test
  void deleteAsLastRecordRemovesTheKey() {
    assertNull(merge(mf(), List.of(ins(1, 1, s("a"), 10L), del(2, 1, s("a"), 10L))));
  }

  @Test
  void updateBeforeAsLastRecordRemovesTheKey() {
    assertNull(merge(mf(), List.of(ins(1, 1, s("a"), 10L), ub(2, 1, s("a"), 10L))));
  }

  @Test
  void insertAfterDeleteRevivesTheKey() {
    KeyValue r = merge(mf(), List.of(ins(1, 1, s("a"), 10L), del(2, 1, s("a"), 10L), ins(3, 1, s("b"), 20L)));
    assertEquals(list(1, "b", 20L), values(r, F));
    assertEquals(KeyValue.INSERT, r.rowKind());
  }

  @Test
  void updateBeforeFollowedByUpdateAfter() {
    KeyValue r = merge(mf(), List.of(ins(1, 1, s("a"), 10L), ub(2, 1, s("a"), 10L), upd(3, 1, s("b"), 11L)));
    assertEquals(list(1, "b", 11L), values(r, F));
  }

  @Test
  void ignoreDeleteDropsRetractions() {
    MergeFunction m = mf("ignore-delete", "true");
    assertEquals(list(1, "a", 10L), values(merge(m, List.of(ins(1, 1, s("a"), 10L), del(2, 1, s("a"), 10L))), F));
    assertEquals(list(1, "a", 10L), values(merge(m, List.of(ins(1, 1, s("a"), 10L), ub(2, 1, s("a"), 10L))), F));
    assertNull(merge(m, List.of(del(2, 1, s("a"), 10L))));
    assertNull(merge(m, List.of()));
  }

  @Test
  void olderIgnoreDeleteSpellingIsHonoured() {
    MergeFunction m = mf("deduplicate.ignore-delete", "TRUE");
    assertEquals(list(1, "a", 10L), values(merge(m, List.of(ins(1, 1, s("a"), 10L), del(2, 1, null, null))), F));
  }

  @Test
  void onlyADeleteIsAbsent() {
    assertNull(merge(mf(), List.of(del(1, 1, s("a"), 10L))));
  }

  @Test
  void copiesRowsAReaderReuses() {
    KeyValue r = mergeReusing(mf(), F, List.of(ins(1, 1, s("first-value"), 1L), upd(2, 1, s("second"), 2L)));
    assertEquals(list(1, "second", 2L), values(r, F));
    assertEquals(1, r.key().getInt(0));
    KeyValue g = mf().merge(List.of(ins(1, 1, s("only"), 3L)));
    assertEquals(list(1, "only", 3L), values(g, F));
  }

  @Test
  void resultSurvivesReset() {
    MergeFunction m = mf();
    KeyValue r = m.merge(List.of(ins(1, 1, s("a"), 1L)));
    m.merge(List.of(ins(2, 2, s("b"), 2L)));
    assertEquals(list(1, "a", 1L), values(r, F));
  }

  @Test
  void sequenceFieldDecidesTheWinnerOverArrivalOrder() {
    List<DataField> f = fields("id", INT, "v", STRING, "ts", BIGINT);
    Map<String, String> o = opts("sequence.field", "ts");
    MergeFunction m = MergeFunctions.create(o, f, PK);
    RecordOrder order = RecordOrder.create(o, f);
    List<KeyValue> recs = new ArrayList<>(List.of(ins(1, 1, s("new"), 200L), ins(2, 1, s("old"), 100L),
        ins(3, 1, s("older"), 50L)));
    assertEquals(list(1, "new", 200L), values(m.merge(order.sort(recs)), f));
    // A late delete with an old timestamp does not delete the newer row.
    recs = new ArrayList<>(List.of(ins(1, 1, s("new"), 200L), del(2, 1, s("x"), 100L)));
    assertEquals(list(1, "new", 200L), values(m.merge(order.sort(recs)), f));
    // Equal sequence-field values fall back to the sequence number.
    recs = new ArrayList<>(List.of(ins(2, 1, s("second"), 100L), ins(1, 1, s("first"), 100L)));
    assertEquals(list(1, "second", 100L), values(m.merge(order.sort(recs)), f));
  }

  @Test
  void descendingSequenceFieldKeepsTheSmallest() {
    List<DataField> f = fields("id", INT, "v", STRING, "ts", BIGINT);
    Map<String, String> o = opts("sequence.field", "ts", "sequence.field.sort-order", "descending");
    RecordOrder order = RecordOrder.create(o, f);
    List<KeyValue> recs = new ArrayList<>(List.of(ins(1, 1, s("high"), 100L), ins(2, 1, s("low"), 50L)));
    assertEquals(list(1, "low", 50L), values(MergeFunctions.create(o, f, PK).merge(order.sort(recs)), f));
  }
}
