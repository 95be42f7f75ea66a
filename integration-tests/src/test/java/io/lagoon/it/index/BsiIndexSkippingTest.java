package io.lagoon.it.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.scan.ScanPlan;
import io.lagoon.core.scan.ScanPlanner;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bit-sliced indexes ({@code file-index.bsi.columns}) decide range predicates inside a file's
 * min/max range: each file holds two clusters of values, so a range in the gap between them
 * skips every file though the stats cannot; random comparisons, IN and NOT over integer, date and
 * decimal columns always answer what plain Spark answers on the same rows. Paimon 1.3.1 reads the
 * table and skips by Lagoon's bit-sliced indexes too.
 */
@RequiresPaimon131
class BsiIndexSkippingTest extends LagoonSparkTest {
  private static final String T = "lake.bsi.t";

  @BeforeAll
  static void load() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.bsi");
    sql("CREATE TABLE " + T + " (id BIGINT, n BIGINT, d DATE, amt DECIMAL(10, 2)) TBLPROPERTIES ('write-only' = 'true', "
        + "'file-index.bsi.columns' = 'n,d,amt')");
    StringBuilder all = new StringBuilder();
    for (int k = 0; k < 4; k++) {
      // Low cluster k*100 .. k*100+49, high cluster 100000 + k*100 ..; negatives in files 1 and 3; some nulls.
      String rows = "SELECT id, CASE WHEN id % 13 = 0 THEN NULL WHEN id % 2 = 0 THEN " + k + " * 100 + id % 50"
          + " ELSE 100000 + " + k + " * 100 + id % 50 END * " + (k % 2 == 1 ? "-1" : "1") + " AS n,"
          + " date_add(DATE'2020-01-01', CAST(CASE WHEN id % 2 = 0 THEN id % 30 ELSE 2000 + id % 30 END AS INT)) AS d,"
          + " CAST((CASE WHEN id % 3 = 0 THEN 10 ELSE 9000 END + id % 7) / 4.0 AS DECIMAL(10, 2)) AS amt"
          + " FROM range(" + (k * 500) + ", " + ((k + 1) * 500) + ", 1, 1)";
      sql("INSERT INTO " + T + " " + rows);
      all.append(k == 0 ? "" : " UNION ALL ").append(rows);
    }
    sql("CREATE OR REPLACE TEMP VIEW plain AS " + all);
  }

  private static Path dir() {
    return warehouse.resolve("bsi.db").resolve("t");
  }

  private static int files(Filter f) throws Exception {
    FileStoreTable t = FileStoreTable.load(new FileIO(new Configuration()), new org.apache.hadoop.fs.Path(dir().toUri()), "bsi.t");
    ScanPlan p = new ScanPlanner(t).plan(t.snapshots().latest().orElseThrow(), List.of(f));
    return p.splits.stream().mapToInt(s -> s.files.size()).sum();
  }

  @Test
  void rangesInTheGapOfEveryFileSkipEveryFile() throws Exception {
    assertEquals(2, files(new GreaterThan("n", 60L)), "files 1 and 3 hold no positive value");
    assertEquals(0, files(new And(new GreaterThan("n", 400L), new LessThanOrEqual("n", 99_000L))), "the gap");
    assertEquals(1, files(new And(new GreaterThan("n", 100L), new LessThanOrEqual("n", 200L))), "file 2's low cluster");
    assertEquals(2, files(new LessThanOrEqual("n", -1L)), "negatives only in files 1 and 3");
    assertEquals(0, files(new EqualTo("amt", new BigDecimal("100.00"))));
    assertEquals(4, files(new EqualTo("amt", new BigDecimal("2.50"))));
    String explain = sql("EXPLAIN SELECT * FROM " + T + " WHERE n > 400 AND n <= 99000").first().getString(0);
    assertTrue(explain.contains("fileIndex=[") && explain.contains("GreaterThan(n,400)"), explain);
    assertEquals(List.of("0"), rows("SELECT count(*) FROM " + T + " WHERE n > 400 AND n <= 99000"));
  }

  @Test
  void randomPredicatesNeverLoseARow() {
    Random r = new Random(29);
    for (int q = 0; q < 45; q++) {
      long a = r.nextInt(2) == 0 ? r.nextInt(500) - 250 : (r.nextBoolean() ? 1 : -1) * (100000L + r.nextInt(500));
      long b = a + r.nextInt(2000);
      String day = java.time.LocalDate.of(2020, 1, 1).plusDays(r.nextInt(2100)).toString();
      String amt = BigDecimal.valueOf(r.nextInt(10000), 2).toPlainString();
      String[] predicates = {"n > " + a, "n >= " + a + " AND n < " + b, "n <= " + a, "n = " + a, "n IN (" + a + ", " + b + ")",
          "NOT (n = " + a + ")", "n IS NULL", "d > DATE'" + day + "'", "d = DATE'" + day + "'", "amt < " + amt,
          "amt = 2.5", "amt BETWEEN " + amt + " AND 2300", "n < " + a + " OR d = DATE'" + day + "'",
          "n IS NOT NULL AND n > " + b, "amt = 2.505"};
      String where = predicates[q % predicates.length];
      assertEquals(rows("SELECT count(*), sum(id) FROM plain WHERE " + where),
          rows("SELECT count(*), sum(id) FROM " + T + " WHERE " + where), where);
    }
  }

  @Test
  void paimonSkipsByLagoonsBitSlicedIndexes() throws Exception {
    sql("CREATE TABLE lake.bsi.copy (id BIGINT, n BIGINT) TBLPROPERTIES ('write-only' = 'true', "
        + "'file-index.bsi.columns' = 'n', 'file-index.in-manifest-threshold' = '1 b')");
    sql("INSERT INTO lake.bsi.copy SELECT id, id * 10 FROM range(0, 100, 1, 1)");
    sql("INSERT INTO lake.bsi.copy SELECT id, CASE WHEN id % 2 = 0 THEN id ELSE 5000 + id END FROM range(0, 100, 1, 1)");
    Path copy = warehouse.resolve("bsi.db").resolve("copy");
    assertEquals(io.lagoon.it.oracle.SparkRows.renderAll(sql("SELECT * FROM lake.bsi.copy")), PaimonOracle.readRows(copy));
    assertEquals(200, PaimonOracle.readRows(copy).size());
    FileStoreTable t = FileStoreTable.load(new FileIO(new Configuration()), new org.apache.hadoop.fs.Path(copy.toUri()), "bsi.copy");
    List<ManifestEntry> live = new ArrayList<>(LiveFiles.read(t.manifests(), t.snapshots().latest().orElseThrow()));
    assertEquals(2, live.size());
    ScanPlan kept = new ScanPlanner(t).plan(t.snapshots().latest().orElseThrow(), List.of(new EqualTo("n", 990L)));
    List<String> keep = new ArrayList<>();
    kept.splits.forEach(sp -> sp.files.forEach(f -> keep.add(f.fileName)));
    assertEquals(1, keep.size(), "n = 990 lies in the second file's range (0 .. 5099) but not in its values");
    // The file Lagoon's index rules out is garbage now: Paimon's filtered read must skip it too.
    for (ManifestEntry e : live) {
      if (!keep.contains(e.file.fileName)) Files.write(copy.resolve("bucket-0").resolve(e.file.fileName), "not parquet".getBytes());
    }
    org.apache.paimon.table.FileStoreTable paimon = PaimonOracle.openTable(copy);
    ReadBuilder rb = paimon.newReadBuilder().withFilter(new PredicateBuilder(paimon.rowType()).equal(1, 990L));
    List<Long> ids = new ArrayList<>();
    for (Split s : rb.newScan().plan().splits()) {
      try (RecordReader<InternalRow> rr = rb.newRead().executeFilter().createReader(s)) {
        rr.forEachRemaining(row -> ids.add(row.getLong(0)));
      }
    }
    assertEquals(List.of(99L), ids, "Paimon opened only the first file");
  }
}
