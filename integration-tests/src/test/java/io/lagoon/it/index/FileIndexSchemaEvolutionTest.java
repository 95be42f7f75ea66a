package io.lagoon.it.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.scan.ScanPlanner;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.types.DataTypes;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.sources.EqualTo;
import org.junit.jupiter.api.Test;

/**
 * File indexes of files written under an older schema: after Paimon renames a column, the old
 * files' indexes (which name it as it was) still decide filters on the new name, by field id; a
 * column added later has no index in the old files, which are read. Random predicates over the
 * evolved table's other columns answer what its rows say.
 */
@RequiresPaimon131
class FileIndexSchemaEvolutionTest extends LagoonSparkTest {
  @Test
  void indexesOfOlderSchemasDecideByFieldId() throws Exception {
    Schema schema = Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.STRING())
        .column("n", DataTypes.INT()).option("file-index.bitmap.columns", "v").option("file-index.bsi.columns", "n")
        .option("file-index.bloom-filter.columns", "v,n").option("write-only", "true").build();
    Path dir = PaimonOracle.createTable(warehouse, "ev", "t", schema);
    for (int f = 0; f < 3; f++) {
      List<GenericRow> rows = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        int id = f * 100 + i;
        rows.add(GenericRow.of(id, i % 9 == 4 ? null : BinaryString.fromString("old-" + (id % 7) + "-" + f), id * 3));
      }
      PaimonOracle.writeRows(dir, rows);
    }
    try (Catalog c = PaimonOracle.catalog(warehouse)) {
      // Paimon checks the index options against the columns: they follow the rename.
      c.alterTable(Identifier.create("ev", "t"), List.of(SchemaChange.setOption("file-index.bitmap.columns", "w"),
          SchemaChange.setOption("file-index.bloom-filter.columns", "w,n"), SchemaChange.renameColumn("v", "w"),
          SchemaChange.addColumn("extra", DataTypes.STRING())), false);
    }
    List<GenericRow> rows = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      rows.add(GenericRow.of(1000 + i, BinaryString.fromString("new-" + (i % 5)), i * 3, BinaryString.fromString("e" + i)));
    }
    PaimonOracle.writeRows(dir, rows);

    FileStoreTable t = FileStoreTable.load(new FileIO(new Configuration()), new org.apache.hadoop.fs.Path(dir.toUri()), "ev.t");
    int planned = new ScanPlanner(t).plan(t.snapshots().latest().orElseThrow(), List.of(new EqualTo("w", "old-3-1")))
        .splits.stream().mapToInt(s -> s.files.size()).sum();
    assertEquals(1, planned, "the renamed column's old indexes (named v) rule out the other three files");
    int added = new ScanPlanner(t).plan(t.snapshots().latest().orElseThrow(), List.of(new org.apache.spark.sql.sources.IsNull("extra")))
        .splits.stream().mapToInt(s -> s.files.size()).sum();
    assertEquals(3, added, "a column added later is null in every old file (the new one has no null)");

    List<Row> all = sql("SELECT * FROM lake.ev.t").collectAsList();
    assertEquals(200, all.size());
    spark.createDataFrame(all, sql("SELECT * FROM lake.ev.t").schema()).createOrReplaceTempView("ev_rows");
    Random r = new Random(8);
    for (int q = 0; q < 36; q++) {
      int n = r.nextInt(100) * 3 + r.nextInt(2);
      String[] predicates = {"n = " + n, "n > " + n + " AND n < " + (n + 40), "extra IS NULL AND n > " + n,
          "extra = 'e7'", "n IN (" + n + ", 3)", "NOT (n = " + n + ")", "w = 'old-" + (n % 7) + "-" + (n % 3) + "'",
          "w IS NULL OR n = " + n, "w IN ('new-2', 'old-1-0')"};
      String where = predicates[q % predicates.length];
      assertEquals(rows("SELECT count(*), sum(id) FROM ev_rows WHERE " + where),
          rows("SELECT count(*), sum(id) FROM lake.ev.t WHERE " + where), where);
    }
  }
}
