package io.lagoon.core.mergetree.compact;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.core.mergetree.KeyComparator;
import io.lagoon.core.mergetree.SortedRunMerger;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.mergetree.engine.MergeFunctions;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.Test;

/** The merger mode compaction uses above older data: retractions are emitted, not dropped. */
class KeepingDeletesMergerTest {
  private static final List<DataField> FIELDS = List.of(
      new DataField(0, "id", PaimonType.of(TypeRoot.INT).notNull()),
      new DataField(1, "v", PaimonType.of(TypeRoot.BIGINT)));

  private static KeyValue kv(int id, long seq, byte kind, Long v) {
    return new KeyValue(new GenericInternalRow(new Object[] {id}), seq, kind,
        new GenericInternalRow(new Object[] {id, v}));
  }

  private static List<String> merge(boolean keep, Map<String, String> options) {
    List<Iterator<KeyValue>> runs = List.of(
        List.of(kv(1, 5, KeyValue.DELETE, null), kv(2, 6, KeyValue.INSERT, 21L), kv(4, 7, KeyValue.DELETE, 4L)).iterator(),
        List.of(kv(1, 1, KeyValue.INSERT, 10L), kv(2, 2, KeyValue.INSERT, 20L), kv(3, 3, KeyValue.INSERT, 30L)).iterator());
    KeyComparator keys = new KeyComparator(List.of(PaimonType.of(TypeRoot.INT)));
    var order = MergeFunctions.recordOrder(options, FIELDS);
    var fn = MergeFunctions.create(options, FIELDS, List.of("id"));
    SortedRunMerger m = keep ? SortedRunMerger.keepingDeletes(runs, keys, order, fn)
        : new SortedRunMerger(runs, keys, order, fn);
    List<String> out = new ArrayList<>();
    while (m.hasNext()) {
      KeyValue r = m.next();
      out.add(r.key().getInt(0) + KeyValue.kindName(r.rowKind()) + "#" + r.sequence());
    }
    return out;
  }

  @Test
  void retractionsAreKeptOnlyWhenAsked() {
    assertEquals(List.of("1-D#5", "2+I#6", "3+I#3", "4-D#7"), merge(true, Map.of()));
    assertEquals(List.of("2+I#6", "3+I#3"), merge(false, Map.of()));
    // ignore-delete: a retraction merged with other records is ignored; a key's lone record is
    // passed through unmerged, as Paimon does (its writers never store one under ignore-delete).
    assertEquals(List.of("1+I#1", "2+I#6", "3+I#3", "4-D#7"), merge(true, Map.of("ignore-delete", "true")));
  }
}
