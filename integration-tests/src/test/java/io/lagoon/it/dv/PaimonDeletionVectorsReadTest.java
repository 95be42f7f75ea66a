package io.lagoon.it.dv;

import static io.lagoon.it.ddl.WarehouseListing.messages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import io.lagoon.spark.read.ScanMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.SparkPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Primary-key tables in deletion-vector mode written by Paimon 1.3.1 (upserts and deletes over
 * many commits, Parquet and ORC, 32- and 64-bit vectors) read in Lagoon exactly as Paimon reads
 * them after every commit: files above level 0 read columnar with their vectors, level 0 hidden.
 */
@RequiresPaimon131
class PaimonDeletionVectorsReadTest extends LagoonSparkTest {
    private static final RowType ROW_TYPE = RowType.of(
            new org.apache.paimon.types.DataType[] {DataTypes.INT().notNull(), DataTypes.STRING(), DataTypes.BIGINT()},
            new String[] {"id", "v", "n"});

    private static Path paimonTable(String db, Map<String, String> options) {
        Schema.Builder b = Schema.newBuilder();
        for (org.apache.paimon.types.DataField f : ROW_TYPE.getFields()) b.column(f.name(), f.type());
        return PaimonOracle.createTable(warehouse, db, "t", b.primaryKey("id").options(options).build());
    }

    private static void commit(Path dir, Random rnd, int c) {
        List<GenericRow> rows = new ArrayList<>();
        // A large first commit, then small ones: the large file stays and collects vectors.
        for (int i = 0; i < (c == 0 ? 500 : 30); i++) {
            int id = c == 0 ? i : rnd.nextInt(500);
            RowKind kind = c > 0 && rnd.nextInt(5) == 0 ? RowKind.DELETE : RowKind.INSERT;
            rows.add(PaimonOracle.rowOfKind(kind, ROW_TYPE, id, "c" + c + "-" + i, rnd.nextInt(5) == 0 ? null : (long) i));
        }
        PaimonOracle.writeRows(dir, rows);
    }

    @ParameterizedTest(name = "{0}, bitmap64 {1}")
    @CsvSource({"parquet, false", "parquet, true", "orc, false"})
    void lagoonReadsAsPaimonDoesAfterEveryCommit(String format, boolean bitmap64) {
        String db = "dvread_" + format + bitmap64;
        Path dir = paimonTable(db, Map.of("bucket", "2", "deletion-vectors.enabled", "true", "file.format", format,
                "deletion-vectors.bitmap64", Boolean.toString(bitmap64)));
        Random rnd = new Random(format.hashCode() + (bitmap64 ? 1 : 0));
        for (int c = 0; c < 6; c++) {
            commit(dir, rnd, c);
            List<String> paimon = PaimonOracle.readRows(dir);
            List<String> lagoon = SparkRows.renderAll(sql("SELECT * FROM lake." + db + ".t"));
            assertEquals(paimon, lagoon, "after commit " + c);
        }
        Dataset<Row> q = sql("SELECT count(*), sum(n) FROM lake." + db + ".t");
        q.collect();
        assertTrue(metric(q, ScanMetrics.ROWS_DELETED_BY_VECTORS) > 0, "rows dropped by vectors");
        assertEquals(0, metric(q, ScanMetrics.MERGED_ROWS), "nothing merged");
        String plan = sql("SELECT * FROM lake." + db + ".t").queryExecution().executedPlan().toString();
        assertTrue(plan.contains("ColumnarToRow"), "columnar:\n" + plan);
    }

    @Test
    void rowWiseReadsApplyVectorsToo() {
        Path dir = paimonTable("dvrows", Map.of("bucket", "1", "deletion-vectors.enabled", "true"));
        Random rnd = new Random(9);
        for (int c = 0; c < 4; c++) commit(dir, rnd, c);
        spark.conf().set("spark.sql.parquet.enableVectorizedReader", "false");
        try {
            assertEquals(PaimonOracle.readRows(dir), SparkRows.renderAll(sql("SELECT * FROM lake.dvrows.t")));
        } finally {
            spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
        }
    }

    @Test
    void aMissingOrCorruptVectorFileIsNamedNeverSkipped() throws Exception {
        Path dir = paimonTable("dvbad", Map.of("bucket", "1", "deletion-vectors.enabled", "true"));
        Random rnd = new Random(4);
        for (int c = 0; c < 3; c++) commit(dir, rnd, c);
        List<Path> indexFiles;
        try (Stream<Path> s = Files.list(dir.resolve("index"))) {
            indexFiles = s.filter(p -> p.getFileName().toString().startsWith("index-") && p.toFile().length() > 20)
                    .toList();
        }
        assertTrue(!indexFiles.isEmpty(), "Paimon wrote index files");
        assertEquals(PaimonOracle.readRows(dir), SparkRows.renderAll(sql("SELECT * FROM lake.dvbad.t")));
        for (Path f : indexFiles) {
            byte[] bytes = Files.readAllBytes(f);
            bytes[bytes.length / 2] ^= 0x55;
            Files.write(f, bytes);
        }
        Throwable e = assertThrows(Throwable.class, () -> sql("SELECT * FROM lake.dvbad.t").collect());
        assertTrue(messages(e).contains("index-") && messages(e).contains("Corrupt deletion vector"), messages(e));
        for (Path f : indexFiles) Files.delete(f);
        e = assertThrows(Throwable.class, () -> sql("SELECT count(*) FROM lake.dvbad.t").collect());
        assertTrue(messages(e).contains("is missing"), messages(e));
    }

    private static long metric(Dataset<Row> executed, String name) {
        List<SparkPlan> scans = new ArrayList<>();
        collect(executed.queryExecution().executedPlan(), scans);
        long out = -1;
        for (SparkPlan s : scans) {
            scala.Option<org.apache.spark.sql.execution.metric.SQLMetric> m = s.metrics().get(name);
            if (m.isDefined()) out = Math.max(out, m.get().value());
        }
        return out;
    }

    private static void collect(SparkPlan plan, List<SparkPlan> out) {
        if (plan instanceof org.apache.spark.sql.execution.datasources.v2.BatchScanExec) out.add(plan);
        if (plan instanceof org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec) {
            collect(((org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec) plan).executedPlan(), out);
        }
        if (plan instanceof org.apache.spark.sql.execution.adaptive.QueryStageExec) {
            collect(((org.apache.spark.sql.execution.adaptive.QueryStageExec) plan).plan(), out);
        }
        for (SparkPlan child : scala.collection.JavaConverters.seqAsJavaListConverter(plan.children()).asJava()) collect(child, out);
    }
}
