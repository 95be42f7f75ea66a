package io.lagoon.it.dv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.catalog.FileSystemCatalog;
import io.lagoon.core.catalog.Identifier;
import io.lagoon.core.deletionvectors.DeletionVector;
import io.lagoon.core.deletionvectors.DeletionVectorIndex;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Deletion vectors written by Paimon 1.3.1 decode in Lagoon's core: a primary-key table in
 * deletion-vector mode, after upserts and deletes, reads exactly as Paimon reads it when every
 * file above level 0 is read in file order with the rows its vector marks skipped (Paimon's
 * readers ignore level 0 in this mode). 32-bit and 64-bit vectors.
 */
@RequiresPaimon131
class PaimonDeletionVectorsDecodeTest extends LagoonSparkTest {
    private static final RowType ROW_TYPE = RowType.of(
            new org.apache.paimon.types.DataType[] {DataTypes.INT().notNull(), DataTypes.STRING()},
            new String[] {"id", "v"});

    @ParameterizedTest(name = "bitmap64 {0}")
    @ValueSource(booleans = {false, true})
    void vectorsOfAPaimonTableSkipExactlyTheRowsPaimonDoesNotReturn(boolean bitmap64) throws Exception {
        String db = "dvdecode" + bitmap64;
        Path dir = PaimonOracle.createTable(warehouse, db, "t", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull()).column("v", DataTypes.STRING()).primaryKey("id")
                .options(Map.of("bucket", "2", "deletion-vectors.enabled", "true",
                        "deletion-vectors.bitmap64", Boolean.toString(bitmap64)))
                .build());
        Random rnd = new Random(bitmap64 ? 2 : 1);
        for (int c = 0; c < 6; c++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                int id = c == 0 ? i : rnd.nextInt(300);
                RowKind kind = c > 0 && rnd.nextInt(6) == 0 ? RowKind.DELETE : RowKind.INSERT;
                rows.add(PaimonOracle.rowOfKind(kind, ROW_TYPE, id, "c" + c + "-" + i));
            }
            PaimonOracle.writeRows(dir, rows);
        }

        FileSystemCatalog catalog = new FileSystemCatalog(new FileIO(new Configuration()),
                new org.apache.hadoop.fs.Path(warehouse.toUri()));
        FileStoreTable table = catalog.loadTable(new Identifier(db, "t"));
        Snapshot snapshot = table.snapshots().latest().orElseThrow();
        DeletionVectorIndex index = DeletionVectorIndex.of(table, snapshot);
        assertTrue(index.size() > 0, "Paimon wrote deletion vectors");
        DeletionVectorIndex.Loader loader = new DeletionVectorIndex.Loader(table.io(), table.dir(), table.fullName());

        List<String> lagoon = new ArrayList<>();
        long deleted = 0;
        for (ManifestEntry e : LiveFiles.read(table.manifests(), snapshot)) {
            if (e.file.level == 0) continue;
            DeletionVectorIndex.Ref ref = index.refOf(e.file.fileName);
            DeletionVector dv = ref == null ? null : loader.load(ref);
            if (dv != null) assertEquals(bitmap64, dv.bitmap64());
            String file = new org.apache.hadoop.fs.Path(table.dir(), "bucket-" + e.bucket + "/" + e.file.fileName).toString();
            List<Row> rows = spark.read().parquet(file).select("id", "v").collectAsList();
            for (int pos = 0; pos < rows.size(); pos++) {
                if (dv != null && dv.isDeleted(pos)) {
                    deleted++;
                    continue;
                }
                lagoon.add("id=" + rows.get(pos).getInt(0) + ", v=" + rows.get(pos).getString(1));
            }
        }
        assertTrue(deleted > 0, "some rows were marked deleted");
        List<String> paimon = new ArrayList<>(PaimonOracle.readRows(dir));
        Collections.sort(paimon);
        Collections.sort(lagoon);
        assertEquals(paimon, lagoon);
    }
}
