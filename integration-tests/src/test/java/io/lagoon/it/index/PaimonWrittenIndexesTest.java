package io.lagoon.it.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.scan.ScanPlanner;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.index.FileIndexFile;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.junit.jupiter.api.Test;

/**
 * Indexes Paimon 1.3.1 wrote, each kind alone on its table: Lagoon skips files by a bitmap-only
 * and by a bsi-only index. An index type Lagoon does not read ({@code range-bitmap}) sits in the
 * same index container as a Bloom filter, embedded in the manifest on one table and in a separate
 * file on the other: Lagoon never skips a file by it (the file is read and its rows answered), and
 * still skips by the Bloom filter beside it.
 */
@RequiresPaimon131
class PaimonWrittenIndexesTest extends LagoonSparkTest {
  @Test
  void anIndexTypeLagoonCannotReadSkipsNothingAndTheOthersStillSkip() throws Exception {
    for (String threshold : List.of("100 kb", "1 b")) {
      String name = threshold.equals("1 b") ? "separate" : "embedded";
      Schema schema = Schema.newBuilder().column("id", DataTypes.INT()).column("n", DataTypes.INT())
          .column("v", DataTypes.STRING()).option("file-index.range-bitmap.columns", "n")
          .option("file-index.bloom-filter.columns", "v").option("file-index.bloom-filter.v.items", "200")
          .option("file-index.in-manifest-threshold", threshold)
          .option("write-only", "true").build();
      Path dir = PaimonOracle.createTable(warehouse, "ux", name, schema);
      for (int f = 0; f < 3; f++) {
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
          int id = f * 100 + i;
          // Every file holds n = 0 and n = 1000, so min/max stats never decide n in between.
          int n = i == 0 ? 0 : i == 1 ? 1000 : f * 300 + i;
          rows.add(GenericRow.of(id, n, BinaryString.fromString("v-" + id)));
        }
        PaimonOracle.writeRows(dir, rows);
      }
      FileStoreTable t = FileStoreTable.load(new FileIO(new Configuration()), new org.apache.hadoop.fs.Path(dir.toUri()),
          "ux." + name);
      List<ManifestEntry> live = new ArrayList<>(LiveFiles.read(t.manifests(), t.snapshots().latest().orElseThrow()));
      assertEquals(3, live.size());
      for (ManifestEntry e : live) {
        byte[] container = name.equals("embedded") ? e.file.embeddedIndex
            : Files.readAllBytes(dir.resolve("bucket-0").resolve(e.file.extraFiles.get(0)));
        assertNotNull(container, name + ": Paimon placed the index as asked");
        Map<String, Map<String, FileIndexFile.Body>> indexes = FileIndexFile.read(container);
        assertTrue(indexes.get("n").containsKey("range-bitmap"), name + ": " + indexes.keySet());
        assertTrue(indexes.get("v").containsKey("bloom-filter"), name + ": " + indexes.keySet());
      }

      assertEquals(3, planned(t, new EqualTo("n", 305)), name + ": a range-bitmap cannot rule a file out for Lagoon");
      assertEquals(3, planned(t, new GreaterThan("n", 950)), name);
      // v-1000 lies inside the string ranges of files 0 and 1 (not of file 2): their Bloom filters rule it out.
      io.lagoon.core.scan.ScanPlan absent = plan(t, new EqualTo("v", "v-1000"));
      assertEquals(0, absent.splits.stream().mapToInt(s -> s.files.size()).sum(), name);
      assertEquals(2, absent.filesSkippedByIndex, name + ": the Bloom filter beside it still decides");
      assertEquals(1, planned(t, new EqualTo("v", "v-205")), name);

      String table = "lake.ux." + name;
      List<Row> all = sql("SELECT * FROM " + table).collectAsList();
      assertEquals(PaimonOracle.readRows(dir), SparkRows.renderAll(sql("SELECT * FROM " + table)), name);
      spark.createDataFrame(all, sql("SELECT * FROM " + table).schema()).createOrReplaceTempView("ux_rows");
      for (String where : List.of("n = 305", "n > 950", "n BETWEEN 250 AND 620", "n IN (0, 41, 642)", "NOT (n = 1000)",
          "n = 305 OR v = 'v-2'", "v = 'v-205' AND n > 0")) {
        List<String> expected = rows("SELECT count(*), sum(id) FROM ux_rows WHERE " + where);
        assertFalse(expected.get(0).startsWith("0,"), where + " matches rows");
        assertEquals(expected, rows("SELECT count(*), sum(id) FROM " + table + " WHERE " + where), name + ": " + where);
      }
    }
  }

  @Test
  void bitmapOnlyAndBsiOnlyTablesOfPaimonSkipFiles() throws Exception {
    for (String kind : List.of("bitmap", "bsi")) {
      Schema schema = Schema.newBuilder().column("id", DataTypes.INT()).column("n", DataTypes.INT())
          .column("cat", DataTypes.STRING()).option("file-index." + kind + ".columns", kind.equals("bitmap") ? "cat,n" : "n")
          .option("write-only", "true").build();
      Path dir = PaimonOracle.createTable(warehouse, "pw", kind, schema);
      for (int f = 0; f < 4; f++) {
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
          // n: 0 and 1000 in every file (stats cover everything), else f*100 + i % 20; cat: 'a', 'z' and 'c<f>'.
          int n = i == 0 ? 0 : i == 1 ? 1000 : f * 100 + i % 20;
          String cat = i == 0 ? "a" : i == 1 ? "z" : "c" + f;
          rows.add(GenericRow.of(f * 1000 + i, n, BinaryString.fromString(cat)));
        }
        PaimonOracle.writeRows(dir, rows);
      }
      FileStoreTable t = FileStoreTable.load(new FileIO(new Configuration()), new org.apache.hadoop.fs.Path(dir.toUri()),
          "pw." + kind);
      io.lagoon.core.scan.ScanPlan eq = plan(t, new EqualTo("n", 215));
      assertEquals(1, eq.splits.stream().mapToInt(s -> s.files.size()).sum(), kind);
      assertEquals(3, eq.filesSkippedByIndex, kind + ": only the index can rule the other files out");
      if (kind.equals("bitmap")) {
        assertEquals(3, plan(t, new EqualTo("cat", "c2")).filesSkippedByIndex);
      } else {
        io.lagoon.core.scan.ScanPlan range = plan(t, new org.apache.spark.sql.sources.And(new GreaterThan("n", 205),
            new org.apache.spark.sql.sources.LessThan("n", 330)));
        assertEquals(2, range.splits.stream().mapToInt(s -> s.files.size()).sum(), "files 2 and 3 hold n in (205, 330)");
        assertEquals(2, range.filesSkippedByIndex);
      }
      String table = "lake.pw." + kind;
      assertEquals(PaimonOracle.readRows(dir), SparkRows.renderAll(sql("SELECT * FROM " + table)), kind);
      List<Row> all = sql("SELECT * FROM " + table).collectAsList();
      spark.createDataFrame(all, sql("SELECT * FROM " + table).schema()).createOrReplaceTempView("pw_rows");
      for (String where : List.of("n = 215", "n > 205 AND n < 330", "cat = 'c2'", "cat IN ('c1', 'c3') AND n = 110",
          "NOT (n = 0)", "n IN (5, 315)")) {
        assertEquals(rows("SELECT count(*), sum(id) FROM pw_rows WHERE " + where),
            rows("SELECT count(*), sum(id) FROM " + table + " WHERE " + where), kind + ": " + where);
      }
    }
  }

  private static io.lagoon.core.scan.ScanPlan plan(FileStoreTable t, Filter f) throws Exception {
    return new ScanPlanner(t).plan(t.snapshots().latest().orElseThrow(), List.of(f));
  }

  private static int planned(FileStoreTable t, Filter f) throws Exception {
    return plan(t, f).splits.stream().mapToInt(s -> s.files.size()).sum();
  }
}
