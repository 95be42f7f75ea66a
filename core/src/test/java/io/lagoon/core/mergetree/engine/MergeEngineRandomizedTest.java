package io.lagoon.core.mergetree.engine;

import static io.lagoon.core.mergetree.engine.EngineTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lagoon.core.types.DataField;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Each engine against a small model written independently of it: the model looks at the whole
 * list of records at once (who has the greatest ordering value, which values are non-null) where
 * the engines fold record by record. Half of the merges go through a reused UnsafeRow.
 */
class MergeEngineRandomizedTest {
  static final int ROUNDS = 400;
  static final List<String> PK = List.of("k");

  static final byte[] KINDS = {KeyValue.INSERT, KeyValue.UPDATE_BEFORE, KeyValue.UPDATE_AFTER, KeyValue.DELETE};

  static boolean add(KeyValue kv) {
    return kv.rowKind() == KeyValue.INSERT || kv.rowKind() == KeyValue.UPDATE_AFTER;
  }

  static Object col(KeyValue kv, List<DataField> f, int i) {
    return plain(Values.getter(i, f.get(i).type()).get(kv.value()));
  }

  static byte kind(Random r, double retractShare) {
    if (r.nextDouble() < retractShare) {
      return r.nextBoolean() ? KeyValue.DELETE : KeyValue.UPDATE_BEFORE;
    }
    return r.nextBoolean() ? KeyValue.INSERT : KeyValue.UPDATE_AFTER;
  }

  static Long maybeLong(Random r, int bound, double nullShare) {
    return r.nextDouble() < nullShare ? null : (long) r.nextInt(bound);
  }

  static Integer maybeInt(Random r, int bound, double nullShare) {
    return r.nextDouble() < nullShare ? null : r.nextInt(bound) - bound / 3;
  }

  static String maybeString(Random r, double nullShare) {
    return r.nextDouble() < nullShare ? null : "s" + r.nextInt(50);
  }

  /**
   * The model's merge order: records ranked by (ts is non-null, ts or -ts, sequence number), so
   * that a null ts ranks lowest in both directions.
   */
  static List<KeyValue> modelOrder(List<KeyValue> recs, int tsColumn, boolean ascending, List<DataField> f) {
    List<KeyValue> out = new ArrayList<>(recs);
    if (tsColumn < 0) {
      out.sort(Comparator.comparingLong(KeyValue::sequence));
      return out;
    }
    out.sort((x, y) -> {
      Long a = (Long) col(x, f, tsColumn);
      Long b = (Long) col(y, f, tsColumn);
      long[] ka = {a == null ? 0 : 1, a == null ? 0 : (ascending ? a : -a), x.sequence()};
      long[] kb = {b == null ? 0 : 1, b == null ? 0 : (ascending ? b : -b), y.sequence()};
      return Arrays.compare(ka, kb);
    });
    return out;
  }

  static KeyValue run(MergeFunction mf, List<DataField> f, Map<String, String> o, List<KeyValue> shuffled, boolean reuse) {
    List<KeyValue> sorted = RecordOrder.create(o, f).sort(new ArrayList<>(shuffled));
    return reuse ? mergeReusing(mf, f, sorted) : mf.merge(sorted);
  }

  /** Records with distinct sequence numbers 1..n in a random arrival order. */
  static List<KeyValue> shuffledRecords(Random r, int n, java.util.function.IntFunction<KeyValue> make) {
    List<KeyValue> recs = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      recs.add(make.apply(i));
    }
    java.util.Collections.shuffle(recs, r);
    return recs;
  }

  // ------------------------------------------------------------ deduplicate

  @Test
  void deduplicateKeepsTheGreatestRecord() {
    List<DataField> f = fields("k", INT, "ts", BIGINT, "v", STRING);
    Random r = new Random(1);
    for (int round = 0; round < ROUNDS; round++) {
      boolean useTs = r.nextBoolean();
      boolean asc = r.nextBoolean();
      boolean ignoreDelete = r.nextInt(3) == 0;
      Map<String, String> o = opts("ignore-delete", Boolean.toString(ignoreDelete));
      if (useTs) {
        o.put("sequence.field", "ts");
        o.put("sequence.field.sort-order", asc ? "ascending" : "descending");
      }
      List<KeyValue> recs = shuffledRecords(r, 1 + r.nextInt(7),
          i -> kv(kind(r, 0.3), i, 1, maybeLong(r, 4, 0.2), s(maybeString(r, 0.2))));

      List<KeyValue> candidates = new ArrayList<>();
      for (KeyValue kv : modelOrder(recs, useTs ? 1 : -1, asc, f)) {
        if (add(kv) || !ignoreDelete) {
          candidates.add(kv);
        }
      }
      KeyValue winner = candidates.isEmpty() ? null : candidates.get(candidates.size() - 1);
      List<Object> expected = winner == null || !add(winner) ? null : values(winner, f);

      KeyValue got = run(MergeFunctions.create(o, f, PK), f, o, recs, r.nextBoolean());
      assertEquals(expected, values(got, f), "round " + round + " " + o + " " + recs);
      if (got != null) {
        assertEquals(winner.sequence(), got.sequence());
        assertEquals(winner.rowKind(), got.rowKind());
      }
    }
  }

  // ------------------------------------------------------------ first-row

  @Test
  void firstRowKeepsTheEarliestAddition() {
    List<DataField> f = fields("k", INT, "v", STRING, "n", BIGINT);
    Random r = new Random(2);
    for (int round = 0; round < ROUNDS; round++) {
      boolean ignoreDelete = r.nextBoolean();
      Map<String, String> o = opts("merge-engine", "first-row", "ignore-delete", Boolean.toString(ignoreDelete));
      List<KeyValue> recs = shuffledRecords(r, 1 + r.nextInt(6),
          i -> kv(kind(r, 0.2), i, 1, s(maybeString(r, 0.2)), maybeLong(r, 9, 0.2)));
      boolean anyRetract = recs.stream().anyMatch(kv -> !add(kv));
      MergeFunction mf = MergeFunctions.create(o, f, PK);
      if (anyRetract && !ignoreDelete) {
        assertThrows(IllegalStateException.class, () -> run(mf, f, o, recs, false));
        continue;
      }
      KeyValue first = recs.stream().filter(MergeEngineRandomizedTest::add)
          .min(Comparator.comparingLong(KeyValue::sequence)).orElse(null);
      KeyValue got = run(mf, f, o, recs, r.nextBoolean());
      assertEquals(first == null ? null : values(first, f), values(got, f), "round " + round + " " + recs);
    }
  }

  // ------------------------------------------------------------ partial-update

  @Test
  void partialUpdateTakesTheLastNonNullValuePerColumn() {
    List<DataField> f = fields("k", INT, "ts", BIGINT, "a", STRING, "b", BIGINT, "c", INT);
    Random r = new Random(3);
    for (int round = 0; round < ROUNDS; round++) {
      boolean useTs = r.nextBoolean();
      boolean asc = r.nextBoolean();
      int deletes = r.nextInt(3); // 0: no retractions, 1: ignore-delete, 2: remove-record-on-delete
      Map<String, String> o = opts("merge-engine", "partial-update");
      if (useTs) {
        o.put("sequence.field", "ts");
        o.put("sequence.field.sort-order", asc ? "ascending" : "descending");
      }
      if (deletes == 1) {
        o.put("ignore-delete", "true");
      } else if (deletes == 2) {
        o.put("partial-update.remove-record-on-delete", "true");
      }
      double retractShare = deletes == 0 ? 0 : 0.3;
      List<KeyValue> recs = shuffledRecords(r, 1 + r.nextInt(8), i -> kv(kind(r, retractShare), i, 1,
          maybeLong(r, 5, 0.3), s(maybeString(r, 0.5)), maybeLong(r, 100, 0.5), maybeInt(r, 100, 0.5)));

      List<KeyValue> ordered = modelOrder(recs, useTs ? 1 : -1, asc, f);
      List<KeyValue> live = new ArrayList<>();
      for (KeyValue kv : ordered) {
        if (kv.rowKind() == KeyValue.DELETE && deletes == 2) {
          live.clear(); // the whole row goes; later records start over
        } else if (add(kv)) {
          live.add(kv);
        }
      }
      List<Object> expected = null;
      if (!live.isEmpty()) {
        expected = new ArrayList<>();
        for (int c = 0; c < f.size(); c++) {
          Object v = null;
          for (KeyValue kv : live) {
            Object x = col(kv, f, c);
            v = x != null ? x : v;
          }
          expected.add(v);
        }
      }
      KeyValue got = run(MergeFunctions.create(o, f, PK), f, o, recs, r.nextBoolean());
      assertEquals(expected, values(got, f), "round " + round + " " + o + " " + recs);
    }
  }

  static final List<DataField> GROUPS = fields("k", INT, "plain", STRING, "g1", BIGINT, "p1", STRING, "p2", BIGINT,
      "ga", INT, "gb", BIGINT, "p3", STRING);

  /** Compares sequence tuples field by field, nulls first. */
  static int compareTuples(Object[] x, Object[] y) {
    for (int i = 0; i < x.length; i++) {
      int c;
      if (x[i] == null || y[i] == null) {
        c = x[i] == null ? (y[i] == null ? 0 : -1) : 1;
      } else {
        c = ((Comparable<Object>) x[i]).compareTo(y[i]);
      }
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  @Test
  @SuppressWarnings("unchecked")
  void partialUpdateSequenceGroupsFollowTheGreatestTuple() {
    List<DataField> f = GROUPS;
    int[][] seqCols = {{2}, {5, 6}};
    int[][] protCols = {{3, 4}, {7}};
    Map<String, String> o = opts("merge-engine", "partial-update", "fields.g1.sequence-group", "p1,p2",
        "fields.ga,gb.sequence-group", "p3");
    Random r = new Random(4);
    for (int round = 0; round < ROUNDS; round++) {
      double retractShare = r.nextBoolean() ? 0 : 0.3;
      List<KeyValue> recs = shuffledRecords(r, 1 + r.nextInt(8), i -> kv(kind(r, retractShare), i, 1,
          s(maybeString(r, 0.5)), maybeLong(r, 4, 0.3), s(maybeString(r, 0.3)), maybeLong(r, 100, 0.3),
          maybeInt(r, 3, 0.3), maybeLong(r, 3, 0.3), s(maybeString(r, 0.3))));
      List<KeyValue> ordered = modelOrder(recs, -1, true, f);

      List<Object> expected = null;
      if (ordered.stream().anyMatch(MergeEngineRandomizedTest::add)) {
        Object[] e = new Object[f.size()];
        e[0] = 1;
        for (KeyValue kv : ordered) { // plain column: last non-null among additions
          if (add(kv) && col(kv, f, 1) != null) {
            e[1] = col(kv, f, 1);
          }
        }
        for (int g = 0; g < seqCols.length; g++) {
          KeyValue best = null;
          Object[] bestTuple = null;
          for (KeyValue kv : ordered) { // later records win ties: >= keeps the later one
            Object[] t = new Object[seqCols[g].length];
            boolean allNull = true;
            for (int i = 0; i < t.length; i++) {
              t[i] = col(kv, f, seqCols[g][i]);
              allNull &= t[i] == null;
            }
            if (!allNull && (best == null || compareTuples(t, bestTuple) >= 0)) {
              best = kv;
              bestTuple = t;
            }
          }
          if (best != null) {
            for (int i = 0; i < seqCols[g].length; i++) {
              e[seqCols[g][i]] = bestTuple[i];
            }
            for (int p : protCols[g]) {
              e[p] = add(best) ? col(best, f, p) : null;
            }
          }
        }
        expected = Arrays.asList(e);
      }
      KeyValue got = run(MergeFunctions.create(o, f, PK), f, o, recs, r.nextBoolean());
      assertEquals(expected, values(got, f), "round " + round + " " + recs);
    }
  }

  // ------------------------------------------------------------ aggregation

  @Test
  void aggregationMatchesWholeListAggregates() {
    List<DataField> f = fields("k", INT, "ts", BIGINT, "total", BIGINT, "top", INT, "low", STRING, "last", STRING,
        "lnn", BIGINT, "first", INT, "fnn", INT, "list", STRING, "all", BOOLEAN, "any", BOOLEAN);
    Random r = new Random(5);
    for (int round = 0; round < ROUNDS; round++) {
      boolean useTs = r.nextBoolean();
      boolean asc = r.nextBoolean();
      int deletes = r.nextInt(3); // 0: retract, 1: ignore-delete, 2: remove-record-on-delete
      Map<String, String> o = opts("merge-engine", "aggregation",
          "fields.total.aggregate-function", "sum",
          "fields.top.aggregate-function", "max", "fields.top.ignore-retract", "true",
          "fields.low.aggregate-function", "min", "fields.low.ignore-retract", "true",
          "fields.last.aggregate-function", "last_value",
          "fields.first.aggregate-function", "first_value", "fields.first.ignore-retract", "true",
          "fields.fnn.aggregate-function", "first_non_null_value", "fields.fnn.ignore-retract", "true",
          "fields.list.aggregate-function", "listagg", "fields.list.ignore-retract", "true",
          "fields.all.aggregate-function", "bool_and", "fields.all.ignore-retract", "true",
          "fields.any.aggregate-function", "bool_or", "fields.any.ignore-retract", "true");
      if (useTs) {
        o.put("sequence.field", "ts");
        o.put("sequence.field.sort-order", asc ? "ascending" : "descending");
      }
      if (deletes == 1) {
        o.put("ignore-delete", "true");
      } else if (deletes == 2) {
        o.put("aggregation.remove-record-on-delete", "true");
      }
      List<KeyValue> recs = shuffledRecords(r, 1 + r.nextInt(8), i -> kv(kind(r, 0.3), i, 1,
          maybeLong(r, 5, 0.3), maybeLong(r, 100, 0.2), maybeInt(r, 100, 0.3), s(maybeString(r, 0.3)),
          s(maybeString(r, 0.3)), maybeLong(r, 100, 0.4), maybeInt(r, 100, 0.4), maybeInt(r, 100, 0.5),
          s(maybeString(r, 0.4)), r.nextInt(4) == 0 ? null : r.nextInt(5) > 0, r.nextInt(4) == 0 ? null : r.nextInt(5) == 0));

      List<KeyValue> live = new ArrayList<>();
      for (KeyValue kv : modelOrder(recs, useTs ? 1 : -1, asc, f)) {
        if (!add(kv) && deletes == 1) {
          continue;
        }
        if (kv.rowKind() == KeyValue.DELETE && deletes == 2) {
          live.clear();
          continue;
        }
        live.add(kv);
      }
      List<Object> expected = live.isEmpty() ? null : model(live, f, useTs);
      KeyValue got = run(MergeFunctions.create(o, f, PK), f, o, recs, r.nextBoolean());
      assertEquals(expected, values(got, f), "round " + round + " " + o + " " + recs);
    }
  }

  private static List<Object> model(List<KeyValue> live, List<DataField> f, boolean tsIsSequenceField) {
    List<Object> adds = new ArrayList<>();
    for (KeyValue kv : live) {
      if (add(kv)) {
        adds.add(kv);
      }
    }
    Object[] e = new Object[f.size()];
    e[0] = 1;
    // ts: a sequence.field column keeps the last value; otherwise last non-null value (the default).
    Object lastTs = null;
    Object lastNonNullTs = null;
    for (KeyValue kv : live) {
      Object ts = col(kv, f, 1);
      lastTs = add(kv) ? ts : null; // last_value retracts to null
      if (ts != null || !add(kv)) {
        lastNonNullTs = add(kv) ? ts : null;
      }
    }
    e[1] = tsIsSequenceField ? lastTs : lastNonNullTs;
    // total: sum of additions minus sum of retractions; null when no value at all.
    Long total = null;
    for (KeyValue kv : live) {
      Long v = (Long) col(kv, f, 2);
      if (v != null) {
        total = (total == null ? 0 : total) + (add(kv) ? v : -v);
      }
    }
    e[2] = total;
    Integer top = null;
    String low = null;
    Integer first = null;
    boolean firstSeen = false;
    Integer fnn = null;
    StringBuilder list = null;
    Boolean all = null;
    Boolean any = null;
    for (Object o : adds) {
      KeyValue kv = (KeyValue) o;
      Integer t = (Integer) col(kv, f, 3);
      if (t != null && (top == null || t > top)) {
        top = t;
      }
      String l = (String) col(kv, f, 4);
      if (l != null && (low == null || l.compareTo(low) < 0)) {
        low = l;
      }
      if (!firstSeen) {
        first = (Integer) col(kv, f, 7);
        firstSeen = true;
      }
      Integer n = (Integer) col(kv, f, 8);
      if (fnn == null) {
        fnn = n;
      }
      String li = (String) col(kv, f, 9);
      if (li != null) {
        list = list == null ? new StringBuilder(li) : list.append(',').append(li);
      }
      Boolean b = (Boolean) col(kv, f, 10);
      if (b != null) {
        all = all == null ? b : Boolean.valueOf(all && b);
      }
      Boolean c = (Boolean) col(kv, f, 11);
      if (c != null) {
        any = any == null ? c : Boolean.valueOf(any || c);
      }
    }
    e[3] = top;
    e[4] = low;
    // last: last_value of the last record, null when that record retracts.
    KeyValue lastRec = live.get(live.size() - 1);
    e[5] = add(lastRec) ? col(lastRec, f, 5) : null;
    // lnn: the last of {non-null addition, retraction}; a retraction clears it.
    Object lnn = null;
    for (KeyValue kv : live) {
      Object v = col(kv, f, 6);
      if (!add(kv)) {
        lnn = null;
      } else if (v != null) {
        lnn = v;
      }
    }
    e[6] = lnn;
    e[7] = first;
    e[8] = fnn;
    e[9] = list == null ? null : list.toString();
    e[10] = all;
    e[11] = any;
    return Arrays.asList(e);
  }
}
