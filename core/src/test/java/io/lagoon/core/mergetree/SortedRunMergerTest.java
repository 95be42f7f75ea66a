package io.lagoon.core.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.mergetree.engine.MergeFunctions;
import io.lagoon.core.mergetree.engine.RecordOrder;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

class SortedRunMergerTest {
  private static final List<DataField> FIELDS = List.of(
      new DataField(0, "id", PaimonType.of(TypeRoot.INT).notNull()),
      new DataField(1, "v", PaimonType.of(TypeRoot.BIGINT)));
  private static final KeyComparator KEYS = new KeyComparator(List.of(PaimonType.of(TypeRoot.INT)));
  /** A string key {@code k<id + 100, zero-padded>}: ordered like the ids, compared through rows, not as longs. */
  private static final KeyComparator STRING_KEYS = new KeyComparator(List.of(PaimonType.of(TypeRoot.VARCHAR)));

  private static KeyValue kv(int id, long seq, byte kind, Long v) {
    return new KeyValue(new GenericInternalRow(new Object[] {id}), seq, kind, new GenericInternalRow(new Object[] {id, v}));
  }

  private static List<String> merge(List<List<KeyValue>> runs, Map<String, String> options) {
    return merge(runs, options, KEYS);
  }

  private static List<String> merge(List<List<KeyValue>> runs, Map<String, String> options, KeyComparator keys) {
    List<Iterator<KeyValue>> its = new ArrayList<>();
    for (List<KeyValue> r : runs) {
      List<KeyValue> run = new ArrayList<>();
      for (KeyValue x : r) {
        InternalRow key = keys == STRING_KEYS
            ? new GenericInternalRow(new Object[] {UTF8String.fromString(String.format("k%04d", x.key().getInt(0) + 100))}) : x.key();
        run.add(new KeyValue(key, x.sequence(), x.rowKind(), x.value()));
      }
      its.add(run.iterator());
    }
    RecordOrder order = MergeFunctions.recordOrder(options, FIELDS);
    SortedRunMerger m = new SortedRunMerger(its, keys, order, MergeFunctions.create(options, FIELDS, List.of("id")));
    List<String> out = new ArrayList<>();
    while (m.hasNext()) {
      KeyValue r = m.next();
      out.add(r.value().getInt(0) + "=" + (r.value().isNullAt(1) ? "null" : r.value().getLong(1)));
    }
    return out;
  }

  @Test
  void lastSequenceWinsAcrossRunsAndDeletesRemoveKeys() {
    List<KeyValue> level0 = List.of(kv(1, 5, KeyValue.INSERT, 50L), kv(3, 6, KeyValue.DELETE, null));
    List<KeyValue> level1 = List.of(kv(1, 1, KeyValue.INSERT, 10L), kv(2, 2, KeyValue.INSERT, 20L),
        kv(3, 3, KeyValue.INSERT, 30L));
    assertEquals(List.of("1=50", "2=20"), merge(List.of(level0, level1), Map.of()));
  }

  @Test
  void matchesAModelOnRandomRuns() {
    Random rnd = new Random(7);
    for (int round = 0; round < 50; round++) {
      TreeMap<Integer, long[]> model = new TreeMap<>(); // id -> {seq, value, deleted}
      List<List<KeyValue>> runs = new ArrayList<>();
      long seq = 0;
      // Half the rounds: one large run over a wide key range and small ones, so most keys come
      // from one run alone, many in a row (as in a compaction after a few upsert rounds).
      boolean skewed = rnd.nextBoolean();
      for (int r = 0; r < 1 + rnd.nextInt(5); r++) {
        TreeMap<Integer, KeyValue> run = new TreeMap<>();
        int size = skewed && r == 0 ? 150 : 20;
        for (int i = 0; i < rnd.nextInt(size); i++) {
          int id = skewed ? rnd.nextInt(200) - 7 : rnd.nextInt(15) - 7;
          boolean delete = rnd.nextInt(5) == 0;
          long s = seq++;
          long v = rnd.nextInt(1000);
          run.put(id, kv(id, s, delete ? KeyValue.DELETE : KeyValue.INSERT, delete ? null : v));
        }
        for (KeyValue x : run.values()) {
          long[] prev = model.get(x.key().getInt(0));
          if (prev == null || prev[0] < x.sequence()) {
            model.put(x.key().getInt(0), new long[] {x.sequence(), x.value().isNullAt(1) ? 0 : x.value().getLong(1),
                x.rowKind() == KeyValue.DELETE ? 1 : 0});
          }
        }
        runs.add(new ArrayList<>(run.values()));
      }
      List<String> expected = new ArrayList<>();
      for (Map.Entry<Integer, long[]> e : model.entrySet()) {
        if (e.getValue()[2] == 0) expected.add(e.getKey() + "=" + e.getValue()[1]);
      }
      java.util.Collections.shuffle(runs, rnd);
      assertEquals(expected, merge(runs, new HashMap<>()), "round " + round);
      assertEquals(expected, merge(runs, new HashMap<>(), STRING_KEYS), "round " + round + ", string keys");
    }
  }
}
