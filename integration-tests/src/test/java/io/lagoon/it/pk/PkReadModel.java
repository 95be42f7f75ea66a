package io.lagoon.it.pk;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

import io.lagoon.it.oracle.CanonicalValues;

/**
 * The expected rows of the primary-key read tests, computed independently of both Paimon and
 * Lagoon: records of the table {@code (id INT, p STRING, v BIGINT, w INT, s STRING, ts BIGINT)}
 * applied in commit order to a map from key to row, with each merge engine's rule written out
 * plainly.
 */
final class PkReadModel {
    static final List<String> COLUMNS = List.of("id", "p", "v", "w", "s", "ts");

    /** One record as written: values in {@link #COLUMNS} order; {@code delete} for a -D record. */
    record Rec(boolean delete, Object[] values) {
        int id() {
            return (Integer) values[0];
        }

        String p() {
            return (String) values[1];
        }

        Long ts() {
            return (Long) values[5];
        }
    }

    enum Engine { DEDUPLICATE, PARTIAL_UPDATE, AGGREGATION, FIRST_ROW, SEQUENCE_FIELD }

    private final Engine engine;
    private final boolean partitioned;
    private final Map<String, Object[]> rows = new TreeMap<>();
    /** For the sequence-field table: the (ts, arrival) of the last record per key, deletes included. */
    private final Map<String, long[]> order = new TreeMap<>();
    private long arrival;

    PkReadModel(Engine engine, boolean partitioned) {
        this.engine = engine;
        this.partitioned = partitioned;
    }

    private String key(Rec r) {
        return partitioned ? r.id() + "/" + r.p() : Integer.toString(r.id());
    }

    void apply(Rec r) {
        String k = key(r);
        arrival++;
        switch (engine) {
            case DEDUPLICATE:
                if (r.delete()) rows.remove(k); else rows.put(k, r.values().clone());
                break;
            case FIRST_ROW:
                rows.putIfAbsent(k, r.values().clone());
                break;
            case SEQUENCE_FIELD: {
                // The record with the largest ts wins; equal ts: the later arrival.
                long[] last = order.get(k);
                if (last == null || r.ts() >= last[0]) {
                    order.put(k, new long[] {r.ts(), arrival});
                    if (r.delete()) rows.remove(k); else rows.put(k, r.values().clone());
                }
                break;
            }
            case PARTIAL_UPDATE: {
                if (r.delete()) {
                    rows.remove(k);
                    break;
                }
                Object[] cur = rows.computeIfAbsent(k, x -> new Object[COLUMNS.size()]);
                for (int i = 0; i < cur.length; i++) if (r.values()[i] != null) cur[i] = r.values()[i];
                break;
            }
            case AGGREGATION: {
                if (r.delete()) {
                    rows.remove(k);
                    break;
                }
                Object[] cur = rows.get(k);
                Object[] in = r.values();
                if (cur == null) {
                    rows.put(k, in.clone());
                    break;
                }
                cur[0] = in[0];
                cur[1] = in[1];
                cur[2] = in[2] == null ? cur[2] : cur[2] == null ? in[2] : (Long) cur[2] + (Long) in[2]; // sum
                cur[3] = in[3] == null ? cur[3] : cur[3] == null ? in[3] : Math.max((Integer) cur[3], (Integer) in[3]);
                if (in[4] != null) cur[4] = in[4]; // last_non_null_value
                if (in[5] != null) cur[5] = in[5]; // default: last_non_null_value
                break;
            }
            default:
                throw new IllegalStateException(engine.name());
        }
    }

    /** Rows matching the condition, rendered with the given columns, sorted. */
    List<String> render(List<String> columns, Predicate<Object[]> where) {
        List<String> out = new ArrayList<>();
        for (Object[] r : rows.values()) {
            if (!where.test(r)) continue;
            List<String> vals = new ArrayList<>();
            for (String c : columns) {
                Object v = r[COLUMNS.indexOf(c)];
                vals.add(v == null ? CanonicalValues.NULL : v.toString());
            }
            out.add(CanonicalValues.fields(columns, vals));
        }
        Collections.sort(out);
        return out;
    }

    List<String> all() {
        return render(COLUMNS, r -> true);
    }

    int size() {
        return rows.size();
    }
}
