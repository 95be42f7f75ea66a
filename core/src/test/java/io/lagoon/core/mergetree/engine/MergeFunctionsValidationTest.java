package io.lagoon.core.mergetree.engine;

import static io.lagoon.core.mergetree.engine.EngineTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lagoon.core.types.DataField;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MergeFunctionsValidationTest {
  static final List<DataField> F =
      fields("k", INT, "a", INT, "b", STRING, "g", BIGINT, "h", INT, "name", STRING, "flag", BOOLEAN);
  static final List<String> PK = List.of("k");

  /** Asserts that the options are rejected with a message containing every fragment. */
  static void rejected(Map<String, String> options, String... fragments) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MergeFunctions.create(options, F, PK), options.toString());
    for (String f : fragments) {
      assertTrue(e.getMessage().contains(f), "'" + f + "' missing from: " + e.getMessage());
    }
  }

  static Map<String, String> pu(String... kv) {
    Map<String, String> m = opts(kv);
    m.put("merge-engine", "partial-update");
    return m;
  }

  static Map<String, String> ag(String... kv) {
    Map<String, String> m = opts(kv);
    m.put("merge-engine", "aggregation");
    return m;
  }

  @Test
  void engineNames() {
    assertTrue(MergeFunctions.create(opts("merge-engine", "partial-update"), F, PK) instanceof PartialUpdateMergeFunction);
    assertTrue(MergeFunctions.create(opts("merge-engine", "aggregation"), F, PK) instanceof AggregateMergeFunction);
    assertTrue(MergeFunctions.create(opts("merge-engine", " FIRST-ROW "), F, PK) instanceof FirstRowMergeFunction);
    rejected(opts("merge-engine", "dedup"), "merge-engine", "'dedup'", "partial-update");
    assertEquals(MergeEngine.AGGREGATION, MergeEngine.fromOption("aggregation"));
    assertEquals("first-row", MergeEngine.FIRST_ROW.optionValue());
  }

  @Test
  void schemaProblems() {
    assertThrows(IllegalArgumentException.class, () -> MergeFunctions.create(Map.of(), F, List.of()));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MergeFunctions.create(Map.of(), F, List.of("nope")));
    assertTrue(e.getMessage().contains("'nope'"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> MergeFunctions.create(Map.of(), F, List.of("k", "k")));
    assertThrows(IllegalArgumentException.class,
        () -> MergeFunctions.create(Map.of(), fields("k", INT, "k", INT), PK));
  }

  @Test
  void booleanOptions() {
    rejected(opts("ignore-delete", "yes"), "ignore-delete", "'yes'");
    rejected(pu("partial-update.remove-record-on-delete", "1"), "partial-update.remove-record-on-delete");
    rejected(ag("aggregation.remove-record-on-delete", "on"), "aggregation.remove-record-on-delete");
    rejected(ag("fields.a.ignore-retract", "maybe"), "fields.a.ignore-retract");
    rejected(ag("fields.b.aggregate-function", "listagg", "fields.b.distinct", "x"), "fields.b.distinct");
  }

  @Test
  void sequenceFieldIsCheckedForEveryEngine() {
    rejected(opts("sequence.field", "zz"), "sequence.field", "'zz'");
    rejected(pu("sequence.field", "zz"), "sequence.field", "'zz'");
    rejected(opts("merge-engine", "first-row", "sequence.field", "g"), "sequence.field", "first-row");
    assertNotNull(MergeFunctions.create(opts("merge-engine", "first-row", "ignore-delete", "true"), F, PK));
    assertEquals(List.of("g"), MergeFunctions.recordOrder(opts("sequence.field", "g"), F).sequenceFields());
  }

  @Test
  void deduplicateIgnoresOtherEnginesOptions() {
    MergeFunctions.validate(opts("fields.b.aggregate-function", "sum", "fields.g.sequence-group", "zz"), F, PK);
  }

  // ------------------------------------------------------------ aggregation

  @Test
  void aggregationFunctionNames() {
    rejected(ag("fields.a.aggregate-function", "avg"), "fields.a.aggregate-function", "'avg'", "sum");
    rejected(ag("fields.a.aggregate-function", "count"), "count", "sum");
    rejected(ag("fields.b.aggregate-function", "rbm32"), "rbm32", "not supported by Lagoon");
    rejected(ag("fields.default-aggregate-function", "median"), "fields.default-aggregate-function", "'median'");
    assertNotNull(MergeFunctions.create(ag("fields.a.aggregate-function", " SUM "), F, PK));
  }

  @Test
  void aggregationTypeChecks() {
    rejected(ag("fields.b.aggregate-function", "sum"), "'sum'", "column 'b'", "STRING", "fields.b.aggregate-function");
    rejected(ag("fields.default-aggregate-function", "sum"), "'sum'", "column 'b'", "fields.default-aggregate-function");
    rejected(ag("fields.a.aggregate-function", "bool_or"), "'bool_or'", "column 'a'");
  }

  @Test
  void aggregationFieldReferences() {
    rejected(ag("fields.zz.aggregate-function", "sum"), "fields.zz.aggregate-function", "'zz'");
    rejected(ag("fields.zz.ignore-retract", "true"), "fields.zz.ignore-retract", "'zz'");
    rejected(ag("fields.zz.list-agg-delimiter", ";"), "fields.zz.list-agg-delimiter", "'zz'");
    rejected(ag("fields.k.aggregate-function", "sum"), "fields.k.aggregate-function", "primary key");
    rejected(ag("fields.g.sequence-group", "a"), "fields.g.sequence-group", "partial-update");
  }

  @Test
  void aggregationDeleteOptionsMustAgree() {
    rejected(ag("ignore-delete", "true", "aggregation.remove-record-on-delete", "true"),
        "ignore-delete", "aggregation.remove-record-on-delete");
  }

  // ------------------------------------------------------------ partial-update

  @Test
  void sequenceGroupReferences() {
    rejected(pu("fields.zz.sequence-group", "a"), "fields.zz.sequence-group", "'zz'");
    rejected(pu("fields.g.sequence-group", "a,zz"), "fields.g.sequence-group", "'zz'");
    rejected(pu("fields.g.sequence-group", "a,,b"), "fields.g.sequence-group", "empty");
    rejected(pu("fields.g,.sequence-group", "a"), "empty");
    rejected(pu("fields.g.sequence-group", "k"), "fields.g.sequence-group", "'k'", "primary key");
    rejected(pu("fields.k.sequence-group", "a"), "fields.k.sequence-group", "'k'", "primary key");
  }

  @Test
  void sequenceGroupTypes() {
    rejected(pu("fields.b.sequence-group", "a"), "fields.b.sequence-group", "'b'", "STRING", "TIMESTAMP");
    rejected(pu("fields.flag.sequence-group", "a"), "'flag'", "BOOLEAN");
    MergeFunctions.validate(pu("fields.g,h.sequence-group", "a,b"), F, PK);
  }

  @Test
  void sequenceGroupOverlaps() {
    rejected(pu("fields.g.sequence-group", "a,b", "fields.h.sequence-group", "b"), "'b'", "two sequence groups",
        "fields.g.sequence-group", "fields.h.sequence-group");
    rejected(pu("fields.g.sequence-group", "a", "fields.g,h.sequence-group", "b"), "'g'", "two sequence groups");
    rejected(pu("fields.g.sequence-group", "h", "fields.h.sequence-group", "a"), "'h'", "sequence field");
    rejected(pu("fields.g.sequence-group", "g,a"), "'g'", "sequence field");
  }

  @Test
  void partialUpdateDeleteOptions() {
    rejected(pu("ignore-delete", "true", "partial-update.remove-record-on-delete", "true"),
        "ignore-delete", "partial-update.remove-record-on-delete");
    rejected(pu("partial-update.remove-record-on-delete", "true", "fields.g.sequence-group", "a"),
        "partial-update.remove-record-on-delete", "fields.g.sequence-group",
        "partial-update.remove-record-on-sequence-group");
    rejected(pu("partial-update.remove-record-on-sequence-group", "g"),
        "partial-update.remove-record-on-sequence-group", "'g'", "none is defined");
    rejected(pu("fields.g.sequence-group", "a", "partial-update.remove-record-on-sequence-group", "a"),
        "partial-update.remove-record-on-sequence-group", "'a'", "fields.g.sequence-group");
    rejected(pu("fields.g.sequence-group", "a", "partial-update.remove-record-on-sequence-group", "g",
        "ignore-delete", "true"), "ignore-delete", "partial-update.remove-record-on-sequence-group");
    MergeFunctions.validate(pu("fields.g,h.sequence-group", "a", "partial-update.remove-record-on-sequence-group", "h"),
        F, PK);
  }

  @Test
  void partialUpdateAggregatesNeedASequenceGroup() {
    rejected(pu("fields.a.aggregate-function", "sum"), "fields.a.aggregate-function", "'a'", "no sequence group");
    rejected(pu("fields.g.sequence-group", "a", "fields.g.aggregate-function", "max"),
        "fields.g.aggregate-function", "sequence field");
    rejected(pu("fields.g.sequence-group", "b", "fields.b.aggregate-function", "sum"), "'sum'", "column 'b'");
    rejected(pu("fields.g.sequence-group", "b", "fields.b.aggregate-function", "count"), "count");
    rejected(pu("fields.default-aggregate-function", "nope"), "fields.default-aggregate-function");
    rejected(pu("fields.zz.aggregate-function", "sum"), "'zz'");
    MergeFunctions.validate(pu("fields.g.sequence-group", "a,b", "fields.a.aggregate-function", "sum",
        "fields.default-aggregate-function", "last_non_null_value"), F, PK);
  }
}
