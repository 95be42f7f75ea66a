package io.lagoon.it.dv;

import static io.lagoon.it.ddl.WarehouseListing.messages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.catalog.FileSystemCatalog;
import io.lagoon.core.catalog.Identifier;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * {@code _file} and {@code _pos}: the data file a row comes from and its position there, which
 * locate the row again (reading that file by itself gives the row at that position) and skip the
 * positions deletion vectors remove; columnar and row-wise, Parquet and ORC.
 */
class MetadataColumnsTest extends LagoonSparkTest {

    @ParameterizedTest(name = "{0}, vectorized {1}")
    @CsvSource({"parquet, true", "parquet, false", "orc, true"})
    void fileAndPositionLocateEveryRowAndSkipDeletedOnes(String format, boolean vectorized) throws Exception {
        String db = "meta_" + format + vectorized;
        sql("CREATE NAMESPACE lake." + db);
        sql("CREATE TABLE lake." + db + ".t (id INT, v STRING) TBLPROPERTIES ('deletion-vectors.enabled' = 'true', "
                + "'file.format' = '" + format + "')");
        sql("INSERT INTO lake." + db + ".t SELECT CAST(id AS INT), concat('v', id) FROM range(0, 300, 1, 3)");
        spark.conf().set("spark.sql.parquet.enableVectorizedReader", Boolean.toString(vectorized));
        try {
            List<Row> rows = sql("SELECT _file, _pos, id, v FROM lake." + db + ".t").collectAsList();
            assertEquals(300, rows.size());
            String someFile = rows.get(0).getString(0);
            Map<String, List<Row>> files = new java.util.HashMap<>();
            for (Row r : rows) {
                String file = r.getString(0);
                List<Row> content = files.computeIfAbsent(file, f -> format.equals("orc")
                        ? spark.read().orc(f).collectAsList() : spark.read().parquet(f).collectAsList());
                Row at = content.get((int) r.getLong(1));
                assertEquals(at.getInt(0), r.getInt(2), "row at " + file + "#" + r.getLong(1));
                assertEquals(at.getString(1), r.getString(3));
            }
            // Delete positions 0 and 2 of one file: those rows, and only they, are gone.
            FileStoreTable t = new FileSystemCatalog(new FileIO(new Configuration()),
                    new org.apache.hadoop.fs.Path(warehouse.toUri())).loadTable(new Identifier(db, "t"));
            t.newRowDelta().deletePositions(Map.of(new org.apache.hadoop.fs.Path(someFile).getName(), new long[] {0, 2})).commit();
            List<Row> after = sql("SELECT _file, _pos FROM lake." + db + ".t").collectAsList();
            assertEquals(298, after.size());
            List<Long> positions = new ArrayList<>();
            for (Row r : after) if (r.getString(0).equals(someFile)) positions.add(r.getLong(1));
            Collections.sort(positions);
            assertEquals(1L, positions.get(0));
            assertEquals(3L, positions.get(1));
            assertEquals(List.of("1"), rows("SELECT count(*) FROM lake." + db + ".t WHERE _pos = 1 AND _file = '" + someFile + "'"));
            assertEquals(List.of("0"), rows("SELECT count(*) FROM lake." + db + ".t WHERE _pos = 0 AND _file = '" + someFile + "'"));
        } finally {
            spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
        }
    }

    @Test
    void mergedPrimaryKeyReadsRefuseThemClearly() {
        sql("CREATE NAMESPACE lake.metapk");
        sql("CREATE TABLE lake.metapk.t (id INT NOT NULL, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
        sql("INSERT INTO lake.metapk.t VALUES (1, 'a'), (2, 'b')");
        sql("INSERT INTO lake.metapk.t VALUES (1, 'c')");
        Throwable e = assertThrows(Throwable.class, () -> sql("SELECT _file, * FROM lake.metapk.t").collect());
        assertTrue(messages(e).contains("_file") && messages(e).contains("metapk.t"), messages(e));
        // A table without metadata columns in the query reads as before.
        assertEquals(List.of("1,c", "2,b"), rows("SELECT * FROM lake.metapk.t ORDER BY id"));
    }
}
