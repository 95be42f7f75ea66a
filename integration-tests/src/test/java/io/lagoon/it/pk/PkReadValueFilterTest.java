package io.lagoon.it.pk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * Filters on value columns must act on merged rows: key 1 has v=10 in an old file and v=20 in a
 * newer one, so {@code WHERE v = 10} must find nothing, although the old file's stats and rows
 * match. Filters on key columns may skip files by their key stats.
 */
@RequiresPaimon131
class PkReadValueFilterTest extends LagoonSparkTest {
    private static final RowType TYPE = RowType.of(
            new org.apache.paimon.types.DataType[] {DataTypes.INT().notNull(), DataTypes.INT()},
            new String[] {"id", "v"});

    @Test
    void valueFiltersNeverReachBelowTheMerge() {
        Path dir = PaimonOracle.createTable(warehouse, "pkf", "t", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull()).column("v", DataTypes.INT())
                .primaryKey("id").option("bucket", "1").build());
        PaimonOracle.writeRows(dir, List.of(PaimonOracle.row(TYPE, 1, 10), PaimonOracle.row(TYPE, 2, 10)));
        PaimonOracle.writeRows(dir, List.of(PaimonOracle.row(TYPE, 1, 20)));
        PaimonOracle.writeRows(dir, List.of(PaimonOracle.row(TYPE, 50, 30), PaimonOracle.row(TYPE, 60, 30)));
        String t = "lake.pkf.t";

        assertEquals(List.of("id=2, v=10"), SparkRows.renderAll(sql("SELECT * FROM " + t + " WHERE v = 10")));
        assertEquals(List.of("id=1, v=20"), SparkRows.renderAll(sql("SELECT * FROM " + t + " WHERE v = 20")));
        assertEquals(List.of("id=1"), SparkRows.renderAll(sql("SELECT id FROM " + t + " WHERE v > 15 AND v < 25")));
        assertEquals(PaimonOracle.readRows(dir), SparkRows.renderAll(sql("SELECT * FROM " + t)));

        // A key filter skips the file of keys 50..60 and still merges key 1.
        Dataset<Row> byKey = sql("SELECT * FROM " + t + " WHERE id = 1");
        assertEquals(List.of("id=1, v=20"), SparkRows.renderAll(byKey));
        assertEquals(1, PkReadScans.metric(byKey, "lagoonFilesSkipped"));
        assertEquals(2, PkReadScans.metric(byKey, "lagoonFilesScanned"));
        // A value filter skips nothing.
        Dataset<Row> byValue = sql("SELECT * FROM " + t + " WHERE v = 99");
        assertEquals(List.of(), SparkRows.renderAll(byValue));
        assertEquals(0, PkReadScans.metric(byValue, "lagoonFilesSkipped"));
        assertTrue(PkReadScans.metric(byValue, "lagoonSectionsMerged") >= 1);
    }
}
