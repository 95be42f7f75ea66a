package io.lagoon.spark.procedures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class CallParserTest {
  @Test
  void recognisesOnlyTheCallKeyword() {
    assertTrue(CallParser.isCall("CALL sys.x()"));
    assertTrue(CallParser.isCall("  call sys.x()"));
    assertTrue(CallParser.isCall("-- a comment\n/* another */ CaLL sys.x()"));
    assertFalse(CallParser.isCall("CALLS sys.x()"));
    assertFalse(CallParser.isCall("SELECT 'CALL sys.x()'"));
    assertFalse(CallParser.isCall("calling"));
    assertFalse(CallParser.isCall(""));
  }

  @Test
  void namedArgumentsKeepTheirValueTextWhole() {
    CallParser.Call c = CallParser.parse("CALL lake.sys.create_tag(table => 'db.t', `TAG` => 'a,b', snapshot => (1 + 2) * 3, "
        + "x => 'it''s => (', y => \"q,)\", z => array(1, 2));");
    assertEquals(List.of("lake", "sys", "create_tag"), c.name());
    assertEquals(List.of(new CallParser.RawArgument("table", "'db.t'"), new CallParser.RawArgument("tag", "'a,b'"),
        new CallParser.RawArgument("snapshot", "(1 + 2) * 3"), new CallParser.RawArgument("x", "'it''s => ('"),
        new CallParser.RawArgument("y", "\"q,)\""), new CallParser.RawArgument("z", "array(1, 2)")), c.arguments());
  }

  @Test
  void positionalArgumentsAndEmptyLists() {
    CallParser.Call c = CallParser.parse("call `sys`.`expire_snapshots`('db.t', 5 /* keep , five */, -- note )\n true)");
    assertEquals(List.of("sys", "expire_snapshots"), c.name());
    assertEquals(3, c.arguments().size());
    assertEquals(null, c.arguments().get(0).name());
    assertEquals("5 /* keep , five */", c.arguments().get(1).value());
    assertEquals(0, CallParser.parse("CALL sys.p( )").arguments().size());
  }

  @Test
  void malformedCallsAreRefusedWithThePlace() {
    String mixed = assertThrows(IllegalArgumentException.class,
        () -> CallParser.parse("CALL sys.p(table => 'a', 'b')")).getMessage();
    assertTrue(mixed.contains("not mixed"), mixed);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> CallParser.parse("CALL sys.p('a'"))
        .getMessage().contains("')' is missing"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> CallParser.parse("CALL sys.p"))
        .getMessage().contains("expected '('"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> CallParser.parse("CALL sys.p('a',)"))
        .getMessage().contains("an argument is empty"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> CallParser.parse("CALL sys.p(a => )"))
        .getMessage().contains("no value"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> CallParser.parse("CALL sys.p('a') extra"))
        .getMessage().contains("unexpected text"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> CallParser.parse("CALL sys.p('unterminated)"))
        .getMessage().contains("unterminated quote"));
  }
}
