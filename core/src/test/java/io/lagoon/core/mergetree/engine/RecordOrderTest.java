package io.lagoon.core.mergetree.engine;

import static io.lagoon.core.mergetree.engine.EngineTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordOrderTest {
  static final List<DataField> F = fields("id", INT, "ts", BIGINT, "flag", INT, "v", STRING);

  static List<Long> sortedSeqs(Map<String, String> o, KeyValue... recs) {
    List<KeyValue> l = new ArrayList<>(List.of(recs));
    RecordOrder.create(o, F).sort(l);
    List<Long> out = new ArrayList<>();
    for (KeyValue kv : l) {
      out.add(kv.sequence());
    }
    return out;
  }

  @Test
  void withoutSequenceFieldTheSequenceNumberDecides() {
    assertEquals(List.of(1L, 2L, 3L), sortedSeqs(Map.of(), ins(3, 1, 1L, 0, null), ins(1, 1, 9L, 0, null),
        ins(2, 1, 5L, 0, null)));
    assertSame(RecordOrder.bySequenceNumber(), RecordOrder.create(Map.of(), F));
    assertFalse(RecordOrder.create(Map.of(), F).hasSequenceFields());
  }

  @Test
  void sequenceFieldFirstThenSequenceNumber() {
    assertEquals(List.of(2L, 3L, 1L, 4L), sortedSeqs(opts("sequence.field", "ts"),
        ins(1, 1, 20L, 0, null), ins(2, 1, 10L, 0, null), ins(3, 1, 10L, 0, null), ins(4, 1, 30L, 0, null)));
  }

  @Test
  void nullsSortFirstInBothOrders() {
    KeyValue[] recs = {ins(1, 1, 20L, 0, null), ins(2, 1, null, 0, null), ins(3, 1, 10L, 0, null)};
    assertEquals(List.of(2L, 3L, 1L), sortedSeqs(opts("sequence.field", "ts"), recs));
    assertEquals(List.of(2L, 1L, 3L), sortedSeqs(opts("sequence.field", "ts", "sequence.field.sort-order", "descending"), recs));
  }

  @Test
  void descendingReversesOnlyTheSequenceFields() {
    assertEquals(List.of(4L, 1L, 2L, 3L), sortedSeqs(opts("sequence.field", "ts", "sequence.field.sort-order", "DESCENDING"),
        ins(1, 1, 20L, 0, null), ins(2, 1, 10L, 0, null), ins(3, 1, 10L, 0, null), ins(4, 1, 30L, 0, null)));
  }

  @Test
  void severalFieldsCompareInOrder() {
    assertEquals(List.of(3L, 2L, 1L, 4L), sortedSeqs(opts("sequence.field", "ts, flag"),
        ins(1, 1, 10L, 5, null), ins(2, 1, 10L, 2, null), ins(3, 1, 10L, null, null), ins(4, 1, 11L, 0, null)));
  }

  @Test
  void stringSequenceFieldsCompareBytewise() {
    assertEquals(List.of(2L, 1L, 3L), sortedSeqs(opts("sequence.field", "v"),
        ins(1, 1, 0L, 0, s("b")), ins(2, 1, 0L, 0, s("B")), ins(3, 1, 0L, 0, s("é"))));
  }

  @Test
  void otherAtomicTypesAreAccepted() {
    for (PaimonType t : List.of(BOOLEAN, DOUBLE, PaimonType.decimal(20, 4), PaimonType.of(TypeRoot.DATE),
        PaimonType.timestamp(3, false), PaimonType.of(TypeRoot.VARBINARY))) {
      List<DataField> f = fields("id", INT, "s", t);
      assertEquals(List.of("s"), RecordOrder.create(opts("sequence.field", "s"), f).sequenceFields());
    }
    List<DataField> f = fields("id", INT, "b", PaimonType.of(TypeRoot.VARBINARY));
    RecordOrder o = RecordOrder.create(opts("sequence.field", "b"), f);
    // Unsigned bytes: 0x80 sorts after 0x7f.
    assertTrue(o.compare(ins(2, 1, new byte[] {(byte) 0x80}), ins(1, 1, new byte[] {0x7f})) > 0);
  }

  @Test
  void badSequenceFieldsAreRejected() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RecordOrder.create(opts("sequence.field", "nope"), F));
    assertTrue(e.getMessage().contains("'nope'") && e.getMessage().contains("sequence.field"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> RecordOrder.create(opts("sequence.field", "ts,ts"), F));
    assertTrue(e.getMessage().contains("twice"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> RecordOrder.create(opts("sequence.field", "ts,,flag"), F));
    assertTrue(e.getMessage().contains("empty"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> RecordOrder.create(opts("sequence.field", "a"), fields("id", INT, "a", PaimonType.array(INT))));
    assertTrue(e.getMessage().contains("'a'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> RecordOrder.create(opts("sequence.field", "ts", "sequence.field.sort-order", "up"), F));
    assertTrue(e.getMessage().contains("sequence.field.sort-order") && e.getMessage().contains("'up'"), e.getMessage());
  }
}
