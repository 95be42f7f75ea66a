package io.lagoon.core.mergetree.engine;

import static io.lagoon.core.mergetree.engine.EngineTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lagoon.core.types.DataField;
import java.util.List;
import org.junit.jupiter.api.Test;

class FirstRowMergeFunctionTest {
  static final List<DataField> F = fields("id", INT, "name", STRING, "amount", BIGINT);
  static final List<String> PK = List.of("id");

  static MergeFunction mf(String... extra) {
    String[] o = new String[extra.length + 2];
    o[0] = "merge-engine";
    o[1] = "first-row";
    System.arraycopy(extra, 0, o, 2, extra.length);
    return MergeFunctions.create(opts(o), F, PK);
  }

  @Test
  void firstRecordWins() {
    KeyValue r = merge(mf(), List.of(ins(1, 1, s("a"), 10L), upd(2, 1, s("b"), 20L), ins(3, 1, s("c"), 30L)));
    assertEquals(list(1, "a", 10L), values(r, F));
    assertEquals(1, r.sequence());
    assertEquals(KeyValue.INSERT, r.rowKind());
  }

  @Test
  void firstRecordWinsEvenWithNulls() {
    assertEquals(list(1, null, null), values(merge(mf(), List.of(ins(1, 1, null, null), ins(2, 1, s("b"), 2L))), F));
  }

  @Test
  void refusesRetractionsByDefault() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> merge(mf(), List.of(ins(1, 1, s("a"), 10L), del(2, 1, s("a"), 10L))));
    assertTrue(e.getMessage().contains("ignore-delete"), e.getMessage());
    assertTrue(e.getMessage().contains("-D"), e.getMessage());
    e = assertThrows(IllegalStateException.class, () -> merge(mf(), List.of(ub(1, 1, s("a"), 10L))));
    assertTrue(e.getMessage().contains("-U"), e.getMessage());
  }

  @Test
  void ignoreDeleteDropsRetractions() {
    MergeFunction m = mf("ignore-delete", "true");
    assertEquals(list(1, "a", 10L), values(merge(m, List.of(ins(1, 1, s("a"), 10L), del(2, 1, s("a"), 10L))), F));
    assertEquals(list(1, "b", 20L), values(merge(m, List.of(del(1, 1, s("a"), 10L), ins(2, 1, s("b"), 20L))), F));
    assertNull(merge(m, List.of(ub(1, 1, s("a"), 10L))));
    assertEquals(list(1, "b", 20L),
        values(merge(mf("first-row.ignore-delete", "true"), List.of(del(1, 1, null, null), ins(2, 1, s("b"), 20L))), F));
  }

  @Test
  void sequenceFieldIsRejected() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> mf("sequence.field", "amount"));
    assertTrue(e.getMessage().contains("sequence.field"), e.getMessage());
    assertTrue(e.getMessage().contains("first-row"), e.getMessage());
  }

  @Test
  void copiesRowsAReaderReuses() {
    KeyValue r = mergeReusing(mf(), F, List.of(ins(1, 1, s("first-value"), 1L), ins(2, 1, s("second"), 2L)));
    assertEquals(list(1, "first-value", 1L), values(r, F));
    assertEquals(1, r.key().getInt(0));
  }
}
