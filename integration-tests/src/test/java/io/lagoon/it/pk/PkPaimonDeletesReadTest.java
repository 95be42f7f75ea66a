package io.lagoon.it.pk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Paimon 1.3.1 writes retractions ({@code -D}, {@code -U}) next to inserts and {@code +U} into an
 * aggregation table (sum, max ignoring retractions, last_value) and a deduplicate table ordered by
 * {@code sequence.field}, over several commits with a compaction trigger of three sorted runs, so
 * its own compactions leave data on several levels. After every commit Lagoon's {@code SELECT *}
 * must equal what Paimon itself reads: Paimon is the reference for how retractions merge.
 */
@RequiresPaimon131
class PkPaimonDeletesReadTest extends LagoonSparkTest {
    private static final RowType ROW_TYPE = RowType.of(
            new org.apache.paimon.types.DataType[] {DataTypes.INT().notNull(), DataTypes.BIGINT(), DataTypes.INT(),
                DataTypes.STRING(), DataTypes.BIGINT()},
            new String[] {"id", "v", "w", "s", "ts"});

    private static Map<String, String> options(String engine) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("bucket", "2");
        o.put("num-sorted-run.compaction-trigger", "3");
        if (engine.equals("aggregation")) {
            o.put("merge-engine", "aggregation");
            o.put("fields.v.aggregate-function", "sum");
            o.put("fields.w.aggregate-function", "max");
            o.put("fields.w.ignore-retract", "true");
            o.put("fields.s.aggregate-function", "last_value");
            o.put("fields.ts.aggregate-function", "max");
            o.put("fields.ts.ignore-retract", "true");
        } else {
            o.put("sequence.field", "ts");
        }
        return o;
    }

    @ParameterizedTest(name = "{0} seed {1}")
    // Seed 1 of aggregation writes a lone -D (see loneRetractionOfAnAggregationKeyIsNoRow): 3 is used instead.
    @CsvSource({"aggregation, 2", "aggregation, 3", "sequence_field, 1", "sequence_field, 2"})
    void lagoonReadsRetractionsAsPaimonDoes(String engine, int seed) {
        Schema.Builder sb = Schema.newBuilder();
        for (org.apache.paimon.types.DataField f : ROW_TYPE.getFields()) sb.column(f.name(), f.type());
        sb.primaryKey(List.of("id"));
        Path dir = PaimonOracle.createTable(warehouse, "pkdel" + seed, engine, sb.options(options(engine)).build());
        String table = "lake.pkdel" + seed + "." + engine;

        Random rnd = new Random(engine.hashCode() * 31L + seed);
        int retractions = 0;
        List<String> history = new ArrayList<>();
        boolean overlapped = false;
        for (int c = 0; c < 9; c++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                int id = rnd.nextInt(10);
                int draw = rnd.nextInt(20);
                RowKind kind = c == 0 || draw < 9 ? RowKind.INSERT
                        : draw < 13 ? RowKind.UPDATE_BEFORE : draw < 16 ? RowKind.UPDATE_AFTER : RowKind.DELETE;
                if (kind.isRetract()) retractions++;
                Long v = rnd.nextInt(5) == 0 ? null : (long) rnd.nextInt(50);
                Integer w = rnd.nextInt(5) == 0 ? null : rnd.nextInt(50);
                String s = rnd.nextInt(5) == 0 ? null : "s" + rnd.nextInt(20);
                Long ts = (long) rnd.nextInt(8); // out of order on purpose, with ties
                rows.add(PaimonOracle.rowOfKind(kind, ROW_TYPE, id, v, w, s, ts));
                history.add("c" + c + " " + kind.shortString() + " id=" + id + " v=" + v + " w=" + w + " s=" + s + " ts=" + ts);
            }
            PaimonOracle.writeRows(dir, rows);
            overlapped |= levels(dir, seed, engine).size() > 1;
            List<String> paimon = PaimonOracle.readRows(dir);
            List<String> lagoon = SparkRows.renderAll(sql("SELECT * FROM " + table));
            if (!paimon.equals(lagoon)) {
                assertEquals(paimon, lagoon, "after commit " + c + "; files " + files(dir, seed, engine)
                        + "\nrecords written:\n" + String.join("\n", history));
            }
        }
        System.out.println("PkPaimonDeletesReadTest " + engine + " seed " + seed + ": " + retractions + " retractions, rows "
                + PaimonOracle.readRows(dir).size() + ", files " + files(dir, seed, engine));
        assertTrue(retractions > 10, "the commits hold retractions: " + retractions);
        assertTrue(overlapped, "after some commit data sat on several levels");
    }

    /**
     * A key whose only record is a retraction. Paimon passes a key's lone record through without
     * the merge function, so a lone -D/-U stays a retraction and the read drops it: the key has no
     * row. Lagoon once ran the aggregate merge function over it, turning it into an INSERT row of
     * retracted values ({@code id=9, v=null, ...}); found with seed 1: {@code -D id=9 v=null w=6
     * s=s6 ts=1} alone in its level-0 file's key range. Lagoon's merger, writer and compaction now
     * pass a key's lone record through unmerged, as Paimon does.
     */
    @org.junit.jupiter.api.Test
    void loneRetractionOfAnAggregationKeyIsNoRow() {
        Schema.Builder sb = Schema.newBuilder();
        for (org.apache.paimon.types.DataField f : ROW_TYPE.getFields()) sb.column(f.name(), f.type());
        Path dir = PaimonOracle.createTable(warehouse, "pkdel_lone", "aggregation",
                sb.primaryKey(List.of("id")).options(options("aggregation")).build());
        PaimonOracle.writeRows(dir, List.of(PaimonOracle.rowOfKind(RowKind.INSERT, ROW_TYPE, 1, 5L, 5, "a", 1L)));
        PaimonOracle.writeRows(dir, List.of(PaimonOracle.rowOfKind(RowKind.DELETE, ROW_TYPE, 9, null, 6, "s6", 1L)));
        assertEquals(List.of("id=1, v=5, w=5, s=a, ts=1"), PaimonOracle.readRows(dir), "Paimon: the lone -D is no row");
        assertEquals(PaimonOracle.readRows(dir), SparkRows.renderAll(sql("SELECT * FROM lake.pkdel_lone.aggregation")));
    }

    private static TreeSet<Integer> levels(Path dir, int seed, String engine) {
        TreeSet<Integer> out = new TreeSet<>();
        for (ManifestEntry e : PkTableFiles.liveLatest(PkTableFiles.load(spark, dir, "pkdel" + seed + "." + engine))) {
            out.add(e.file.level);
        }
        return out;
    }

    /** "bucket/level/rows/seq range" of every live file, for messages. */
    private static String files(Path dir, int seed, String engine) {
        List<String> out = new ArrayList<>();
        for (ManifestEntry e : PkTableFiles.liveLatest(PkTableFiles.load(spark, dir, "pkdel" + seed + "." + engine))) {
            out.add("b" + e.bucket + "/L" + e.file.level + "/" + e.file.rowCount + "rows/seq" + e.file.minSequenceNumber
                    + "-" + e.file.maxSequenceNumber + "/" + e.file.fileName);
        }
        out.sort(String::compareTo);
        return out.toString();
    }
}
