package io.lagoon.it.pk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import io.lagoon.it.pk.PkReadModel.Engine;
import io.lagoon.it.pk.PkReadModel.Rec;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Primary-key tables that the real Paimon 1.3.1 wrote through its Java API, several commits to
 * the same keys (so files overlap and need a merge), updates and deletes, then a commit of new
 * keys only (files that read raw): Lagoon reads through Spark SQL the rows Paimon reads and the
 * rows an independent model of each merge engine expects, with projections, filters on key and
 * value columns, and counts. Every engine runs in Parquet unpartitioned and ORC partitioned.
 * Deduplicate and partial-update tables also get -D records.
 */
@RequiresPaimon131
class PkReadEnginesTest extends LagoonSparkTest {
    private static final RowType ROW_TYPE = RowType.of(
            new org.apache.paimon.types.DataType[] {DataTypes.INT().notNull(), DataTypes.STRING().notNull(),
                DataTypes.BIGINT(), DataTypes.INT(), DataTypes.STRING(), DataTypes.BIGINT()},
            PkReadModel.COLUMNS.toArray(new String[0]));

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Engine e : Engine.values()) {
            out.add(Arguments.of(e, "parquet", false));
            out.add(Arguments.of(e, "orc", true));
        }
        return out.stream();
    }

    private static Map<String, String> options(Engine engine, String format) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("bucket", "2");
        o.put("file.format", format);
        // Compaction after three sorted runs: later commits add level-0 files over compacted ones.
        o.put("num-sorted-run.compaction-trigger", "3");
        switch (engine) {
            case PARTIAL_UPDATE:
                o.put("merge-engine", "partial-update");
                o.put("partial-update.remove-record-on-delete", "true");
                break;
            case AGGREGATION:
                o.put("merge-engine", "aggregation");
                o.put("fields.v.aggregate-function", "sum");
                o.put("fields.w.aggregate-function", "max");
                o.put("fields.s.aggregate-function", "last_non_null_value");
                o.put("aggregation.remove-record-on-delete", "true");
                break;
            case FIRST_ROW:
                o.put("merge-engine", "first-row");
                break;
            case SEQUENCE_FIELD:
                o.put("sequence.field", "ts");
                break;
            default:
                break;
        }
        return o;
    }

    /** Random records over a few keys; the last commit writes new keys only. */
    private static List<List<Rec>> commits(Engine engine, long seed) {
        Random rnd = new Random(seed);
        List<List<Rec>> out = new ArrayList<>();
        for (int c = 0; c < 5; c++) {
            List<Rec> recs = new ArrayList<>();
            for (int i = 0; i < 14; i++) {
                int id = rnd.nextInt(12);
                String p = rnd.nextBoolean() ? "a" : "b";
                boolean sparse = engine == Engine.PARTIAL_UPDATE || engine == Engine.AGGREGATION;
                Long v = sparse && rnd.nextInt(3) == 0 ? null : (long) rnd.nextInt(100);
                Integer w = sparse && rnd.nextInt(3) == 0 ? null : rnd.nextInt(100);
                String s = sparse && rnd.nextInt(3) == 0 ? null : "s" + rnd.nextInt(50);
                // Sequence-field records arrive out of order: ts is random, not rising.
                Long ts = (long) rnd.nextInt(engine == Engine.SEQUENCE_FIELD ? 6 : 1000);
                boolean deletes = engine == Engine.DEDUPLICATE || engine == Engine.PARTIAL_UPDATE;
                boolean delete = deletes && c > 0 && rnd.nextInt(6) == 0;
                recs.add(new Rec(delete, new Object[] {id, p, v, w, s, ts}));
            }
            out.add(recs);
        }
        List<Rec> fresh = new ArrayList<>();
        for (int id = 100; id < 106; id++) {
            fresh.add(new Rec(false, new Object[] {id, "a", (long) id, id, "n" + id, 1L}));
        }
        // ...and one old key, so that the new files overlap older ones in its bucket.
        fresh.add(new Rec(false, new Object[] {1, "a", 7L, 7, "late", 9L}));
        fresh.add(new Rec(false, new Object[] {2, "a", 8L, 8, "late", 9L}));
        out.add(fresh);
        return out;
    }

    @ParameterizedTest(name = "{0} {1} partitioned={2}")
    @MethodSource("cases")
    void lagoonReadsWhatPaimonMerged(Engine engine, String format, boolean partitioned) {
        String db = "pkr_" + format + (partitioned ? "_p" : "");
        String name = engine.name().toLowerCase();
        Schema.Builder sb = Schema.newBuilder();
        for (org.apache.paimon.types.DataField f : ROW_TYPE.getFields()) sb.column(f.name(), f.type());
        sb.primaryKey(partitioned ? List.of("id", "p") : List.of("id"));
        if (partitioned) sb.partitionKeys("p");
        Path dir = PaimonOracle.createTable(warehouse, db, name, sb.options(options(engine, format)).build());
        String table = "lake." + db + "." + name;

        PkReadModel model = new PkReadModel(engine, partitioned);
        for (List<Rec> commit : commits(engine, 31L * engine.ordinal() + (partitioned ? 7 : 0))) {
            List<GenericRow> rows = new ArrayList<>();
            for (Rec r : commit) {
                rows.add(PaimonOracle.rowOfKind(r.delete() ? RowKind.DELETE : RowKind.INSERT, ROW_TYPE, r.values()));
                model.apply(r);
            }
            PaimonOracle.writeRows(dir, rows);
        }
        List<String> expected = model.all();
        assertTrue(model.size() > 6, "the model keeps some keys: " + expected);
        Dataset<Row> all = sql("SELECT * FROM " + table);
        assertEquals(PaimonOracle.readRows(dir), SparkRows.renderAll(all), "Lagoon SELECT * vs Paimon's read");
        assertEquals(expected, PaimonOracle.readRows(dir), "Paimon's own read vs the model");
        if (engine != Engine.FIRST_ROW) { // first-row tables are compacted on every Paimon commit
            assertTrue(PkReadScans.metric(all, "lagoonSectionsMerged") > 0, "overlapping files were merged");
        }

        assertEquals(model.render(List.of("v", "id"), r -> true),
                SparkRows.renderAll(sql("SELECT v, id FROM " + table)), "projection");
        assertEquals(model.render(List.of("id", "s"), r -> r[2] != null && (Long) r[2] > 50),
                SparkRows.renderAll(sql("SELECT id, s FROM " + table + " WHERE v > 50")), "value filter");
        assertEquals(model.render(PkReadModel.COLUMNS, r -> (Integer) r[0] == 3 || (Integer) r[0] == 104),
                SparkRows.renderAll(sql("SELECT * FROM " + table + " WHERE id IN (3, 104)")), "key filter");
        assertEquals(model.render(PkReadModel.COLUMNS, r -> "b".equals(r[1])),
                SparkRows.renderAll(sql("SELECT * FROM " + table + " WHERE p = 'b'")), "filter on p");
        assertEquals(List.of("count(1)=" + model.size()),
                SparkRows.renderAll(sql("SELECT count(*) FROM " + table)), "count");
    }
}
