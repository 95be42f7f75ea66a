package io.lagoon.it.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.scan.ScanPlan;
import io.lagoon.core.scan.ScanPlanner;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.index.BitmapIndex;
import io.lagoon.index.FileIndexFile;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.Not;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bitmap indexes ({@code file-index.bitmap.columns}) are written with every append file, in the
 * version Paimon 0.9 reads, and skip files: equality and IN on a value no row of a file holds,
 * IS [NOT] NULL, and NOT equality / NOT IN when a file holds nothing else, where min/max stats
 * cannot tell. Random predicates over the indexed columns always answer what plain Spark answers
 * on the same rows (an index never hides a match). Paimon 1.3.1 reads the table and skips by
 * Lagoon's bitmaps too.
 */
@RequiresPaimon131
class BitmapIndexSkippingTest extends LagoonSparkTest {
  private static final String T = "lake.bm.t";
  /** File k holds ids k*1000 + 2i; cat 'c<k>' but 'a' and 'z' in two rows (stats cover every value). */
  private static final String ROWS = "SELECT id, CASE WHEN i = 0 THEN 'a' WHEN i = 1 THEN 'z' ELSE concat('c', k) END AS cat,"
      + " CAST(k * 10 + i % 3 AS INT) AS n, (k = 0 OR i % 2 = 0) AS flag,"
      + " CASE WHEN k IN (1, 3) AND i % 50 = 3 THEN NULL ELSE 'x' END AS s, k";

  @BeforeAll
  static void load() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.bm");
    sql("CREATE TABLE " + T + " (id BIGINT, cat STRING, n INT, flag BOOLEAN, s STRING) TBLPROPERTIES ("
        + "'write-only' = 'true', 'file-index.bitmap.columns' = 'cat,n,flag,s', 'file-index.in-manifest-threshold' = '1 b')");
    StringBuilder all = new StringBuilder();
    for (int k = 0; k < 5; k++) {
      String rows = ROWS.replace("k", Integer.toString(k)).replace("concat('c', " + k + ")", "'c" + k + "'")
          + " FROM (SELECT " + k + " * 1000 + id * 2 AS id, id AS i FROM range(0, 400, 1, 1))";
      sql("INSERT INTO " + T + " SELECT id, cat, n, flag, s FROM (" + rows + ")");
      all.append(k == 0 ? "" : " UNION ALL ").append("SELECT id, cat, n, flag, s FROM (").append(rows).append(")");
    }
    sql("CREATE OR REPLACE TEMP VIEW plain AS " + all);
  }

  private static Path dir() {
    return warehouse.resolve("bm.db").resolve("t");
  }

  private static FileStoreTable core() throws Exception {
    return FileStoreTable.load(new FileIO(new Configuration()), new org.apache.hadoop.fs.Path(dir().toUri()), "bm.t");
  }

  private static ScanPlan plan(Filter f) throws Exception {
    FileStoreTable t = core();
    return new ScanPlanner(t).plan(t.snapshots().latest().orElseThrow(), List.of(f));
  }

  private static int files(ScanPlan p) {
    return p.splits.stream().mapToInt(s -> s.files.size()).sum();
  }

  @Test
  void everyFileHasItsBitmapsInPaimonsVersionOne() throws Exception {
    FileStoreTable t = core();
    List<ManifestEntry> live = new ArrayList<>(LiveFiles.read(t.manifests(), t.snapshots().latest().orElseThrow()));
    assertEquals(5, live.size());
    for (ManifestEntry e : live) {
      assertEquals(List.of(e.file.fileName + ".index"), e.file.extraFiles);
      byte[] container = Files.readAllBytes(dir().resolve("bucket-0").resolve(e.file.extraFiles.get(0)));
      FileIndexFile.Body cat = FileIndexFile.read(container).get("cat").get(BitmapIndex.TYPE);
      assertNotNull(cat);
      assertEquals(1, cat.data()[cat.offset()], "bitmap version 1");
      BitmapIndex b = BitmapIndex.read(cat.data(), cat.offset(), cat.length(), BitmapIndex.Width.VARIABLE);
      assertEquals(400, b.rowCount());
      assertEquals(3, b.distinctValues());
    }
  }

  @Test
  void filesWithoutTheValueAreSkippedWhereStatsCannot() throws Exception {
    ScanPlan one = plan(new EqualTo("cat", "c3"));
    assertEquals(1, files(one), "only the file holding c3");
    assertEquals(4, one.filesSkippedByIndex);
    assertEquals(0, files(plan(new EqualTo("cat", "c9"))), "a value no file holds opens none");
    assertEquals(2, files(plan(new In("cat", new Object[] {"c1", "c4", "nope"}))));
    assertEquals(2, files(plan(new EqualTo("n", 21))) + files(plan(new EqualTo("n", 42))), "n 21 in file 2, 42 in file 4");
    assertEquals(2, files(plan(new IsNull("s"))), "nulls only in files 1 and 3");
    assertEquals(4, files(plan(new Not(new EqualTo("flag", true)))), "file 0 holds only true");
    assertEquals(5, files(plan(new Not(new EqualTo("cat", "c3")))), "every file holds other values");
    String explain = sql("EXPLAIN SELECT * FROM " + T + " WHERE cat = 'c3' AND s IS NULL").first().getString(0);
    assertTrue(explain.contains("fileIndex=[") && explain.contains("EqualTo(cat,c3)") && explain.contains("IsNull(s)"),
        explain);
    assertEquals(rows("SELECT * FROM plain WHERE cat = 'c3' ORDER BY id"), rows("SELECT * FROM " + T + " WHERE cat = 'c3' ORDER BY id"));
  }

  /** An index can only prove absence: random predicates answer exactly what plain Spark answers. */
  @Test
  void randomPredicatesNeverLoseARow() {
    Random r = new Random(17);
    String[] cats = {"a", "z", "c0", "c1", "c2", "c3", "c4", "c9"};
    for (int q = 0; q < 40; q++) {
      String c1 = cats[r.nextInt(cats.length)];
      String c2 = cats[r.nextInt(cats.length)];
      int n = r.nextInt(50);
      String[] predicates = {
          "cat = '" + c1 + "'", "cat IN ('" + c1 + "', '" + c2 + "')", "NOT (cat = '" + c1 + "')",
          "cat NOT IN ('" + c1 + "', '" + c2 + "')", "n = " + n, "n IN (" + n + ", NULL)", "NOT (n = " + n + ")",
          "s IS NULL", "s IS NOT NULL AND cat = '" + c1 + "'", "flag = false", "NOT flag", "flag <=> true OR n = " + n,
          "cat = '" + c1 + "' OR s IS NULL", "s <=> NULL", "NOT (s IS NULL) AND n = " + n};
      String where = predicates[q % predicates.length];
      assertEquals(rows("SELECT count(*), sum(id) FROM plain WHERE " + where),
          rows("SELECT count(*), sum(id) FROM " + T + " WHERE " + where), where);
    }
  }

  /** Paimon's own read with {@code cat = value}: its rows' ids. */
  private static List<Long> paimonIdsWhereCat(String value) {
    org.apache.paimon.table.FileStoreTable table = PaimonOracle.openTable(dir());
    ReadBuilder rb = table.newReadBuilder().withFilter(new PredicateBuilder(table.rowType())
        .equal(1, BinaryString.fromString(value)));
    List<Long> ids = new ArrayList<>();
    for (Split s : rb.newScan().plan().splits()) {
      try (RecordReader<InternalRow> rr = rb.newRead().executeFilter().createReader(s)) {
        rr.forEachRemaining(row -> ids.add(row.getLong(0)));
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return ids;
  }

  @Test
  void paimonReadsTheTableAndSkipsByLagoonsBitmaps() throws Exception {
    sql("CREATE TABLE lake.bm.copy TBLPROPERTIES ('write-only' = 'true', 'file-index.bitmap.columns' = 'cat', "
        + "'file-index.in-manifest-threshold' = '1 b') AS SELECT * FROM " + T + " WHERE false");
    sql("INSERT INTO lake.bm.copy SELECT /*+ REPARTITION(1) */ * FROM " + T + " WHERE cat IN ('a', 'c1')");
    sql("INSERT INTO lake.bm.copy SELECT /*+ REPARTITION(1) */ * FROM " + T + " WHERE cat IN ('z', 'c2')");
    Path copy = warehouse.resolve("bm.db").resolve("copy");
    assertEquals(io.lagoon.it.oracle.SparkRows.renderAll(sql("SELECT * FROM lake.bm.copy")), PaimonOracle.readRows(copy));
    List<String> paimonRows = PaimonOracle.readRows(dir());
    assertEquals(2000, paimonRows.size(), "Paimon reads every row");
    assertEquals(io.lagoon.it.oracle.SparkRows.renderAll(sql("SELECT * FROM " + T)), paimonRows, "row for row");
    // The file without 'c2' is garbage now: Paimon's filtered read must skip it by its bitmap.
    FileStoreTable t = FileStoreTable.load(new FileIO(new Configuration()), new org.apache.hadoop.fs.Path(copy.toUri()),
        "bm.copy");
    List<ManifestEntry> live = new ArrayList<>(LiveFiles.read(t.manifests(), t.snapshots().latest().orElseThrow()));
    assertEquals(2, live.size());
    ManifestEntry first = live.stream().filter(e -> e.file.minSequenceNumber == 0).findFirst().orElseThrow();
    Files.write(copy.resolve("bucket-0").resolve(first.file.fileName), "not parquet".getBytes());
    org.apache.paimon.table.FileStoreTable paimon = PaimonOracle.openTable(copy);
    ReadBuilder rb = paimon.newReadBuilder().withFilter(new PredicateBuilder(paimon.rowType())
        .equal(1, BinaryString.fromString("c2")));
    long n = 0;
    for (Split s : rb.newScan().plan().splits()) {
      try (RecordReader<InternalRow> rr = rb.newRead().executeFilter().createReader(s)) {
        n += rr.toCloseableIterator().hasNext() ? 1 : 0;
      }
    }
    assertEquals(1, n, "Paimon opened only the file holding c2");
    assertTrue(paimonIdsWhereCat("c9").isEmpty());
  }

  @Test
  void badBitmapOptionsAreRefusedAtCreate() {
    Throwable unknown = org.junit.jupiter.api.Assertions.assertThrows(Throwable.class, () -> sql(
        "CREATE TABLE lake.bm.bad1 (id INT, d DOUBLE) TBLPROPERTIES ('file-index.bitmap.columns' = 'nope')"));
    assertTrue(io.lagoon.it.ddl.WarehouseListing.messages(unknown).contains("'file-index.bitmap.columns' names column 'nope'"),
        io.lagoon.it.ddl.WarehouseListing.messages(unknown));
    Throwable type = org.junit.jupiter.api.Assertions.assertThrows(Throwable.class, () -> sql(
        "CREATE TABLE lake.bm.bad2 (id INT, d DOUBLE) TBLPROPERTIES ('file-index.bitmap.columns' = 'd')"));
    assertTrue(io.lagoon.it.ddl.WarehouseListing.messages(type).contains("no bitmap index"),
        io.lagoon.it.ddl.WarehouseListing.messages(type));
    assertTrue(!Files.exists(warehouse.resolve("bm.db").resolve("bad1")) && !Files.exists(warehouse.resolve("bm.db").resolve("bad2")));
  }

  /** Inside a file the bitmaps admit, the rows they rule out are left out before Spark's filter sees them. */
  @Test
  void rowsTheBitmapsRuleOutAreLeftOutOfTheFilesRead() {
    org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> df = sql("SELECT id, cat FROM " + T + " WHERE cat = 'a' OR cat = 'c2'");
    List<String> got = rows("SELECT id, cat FROM " + T + " WHERE cat = 'a' OR cat = 'c2' ORDER BY id");
    assertEquals(rows("SELECT id, cat FROM plain WHERE cat = 'a' OR cat = 'c2' ORDER BY id"), got);
    df.collect();
    java.util.Map<String, Long> m = io.lagoon.it.oracle.PlanMetrics.ofScans(df.queryExecution().executedPlan());
    // Every file holds an 'a' row; only file 2 holds c2 rows (398 of its 400): the four files
    // whose bitmaps admit one row each are narrowed to it, file 2 (most rows kept) is read whole.
    assertEquals(4L * 399, m.get("lagoonRowsSkippedByIndex"));
    assertEquals(0L, m.get("lagoonFilesSkippedByIndex"));
    // With deletion vectors too: a row both deleted and outside the selection stays out.
    sql("CREATE TABLE lake.bm.dv TBLPROPERTIES ('deletion-vectors.enabled' = 'true', 'write-only' = 'true', "
        + "'file-index.bitmap.columns' = 'cat') AS SELECT * FROM " + T + " WHERE false");
    sql("INSERT INTO lake.bm.dv SELECT /*+ REPARTITION(1) */ * FROM " + T);
    sql("DELETE FROM lake.bm.dv WHERE id % 4 = 0");
    assertEquals(rows("SELECT id FROM plain WHERE cat = 'c3' AND id % 4 <> 0 ORDER BY id"),
        rows("SELECT id FROM lake.bm.dv WHERE cat = 'c3' ORDER BY id"));
    org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> dv = sql("SELECT _pos, id FROM lake.bm.dv WHERE cat = 'a'");
    List<org.apache.spark.sql.Row> a = dv.collectAsList();
    assertEquals(rows("SELECT count(*) FROM plain WHERE cat = 'a' AND id % 4 <> 0"), List.of(Integer.toString(a.size())));
    assertTrue(io.lagoon.it.oracle.PlanMetrics.ofScans(dv.queryExecution().executedPlan()).get("lagoonRowsSkippedByIndex") > 1900);
  }

  /** Row groups in which the selection keeps no row are not read at all; positions and answers stay right. */
  /**
   * A whole file read with a row selection counts its rows' positions itself (no pushed filter
   * then): the positions are still each row's own, with or without the vectorized reader.
   */
  @Test
  void aSelectedWholeFileKeepsEachRowsPosition() {
    for (String vectorized : new String[] {"true", "false"}) {
      spark.conf().set("spark.sql.parquet.enableVectorizedReader", vectorized);
      try {
        List<org.apache.spark.sql.Row> got = sql("SELECT id, _pos FROM " + T + " WHERE n = 11 AND id > 1100")
            .collectAsList();
        assertEquals(rows("SELECT count(*) FROM plain WHERE n = 11 AND id > 1100"), List.of(Integer.toString(got.size())));
        assertTrue(got.size() > 50, "rows: " + got.size());
        for (org.apache.spark.sql.Row r : got) {
          assertEquals((r.getLong(0) - 1000) / 2, r.getLong(1), "the position of id " + r.getLong(0));
        }
      } finally {
        spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
      }
    }
  }

  @Test
  void rowGroupsWithoutSelectedRowsAreNotRead() {
    sql("CREATE TABLE lake.bm.rg (id INT, k INT, pad STRING) TBLPROPERTIES ('file-index.bitmap.columns' = 'k', "
        + "'parquet.block.size' = '4096', 'parquet.page.size' = '1024', 'write-only' = 'true', "
        + "'deletion-vectors.enabled' = 'true')");
    sql("INSERT INTO lake.bm.rg SELECT /*+ REPARTITION(1) */ CAST(id AS INT), CAST(id DIV 1000 AS INT), "
        + "repeat(CAST(id AS STRING), 8) FROM range(0, 4000)");
    sql("DELETE FROM lake.bm.rg WHERE id % 7 = 0");
    for (String vectorized : new String[] {"true", "false"}) {
      spark.conf().set("spark.sql.parquet.enableVectorizedReader", vectorized);
      try {
        org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> df = sql("SELECT id, _pos FROM lake.bm.rg WHERE k = 2");
        List<org.apache.spark.sql.Row> got = df.collectAsList();
        List<String> ids = new java.util.ArrayList<>();
        for (org.apache.spark.sql.Row r : got) {
          ids.add(Integer.toString(r.getInt(0)));
          assertEquals((long) r.getInt(0), r.getLong(1), "a row keeps its position in the file");
        }
        ids.sort(null);
        List<String> expected = new java.util.ArrayList<>();
        for (int i = 2000; i < 3000; i++) if (i % 7 != 0) expected.add(Integer.toString(i));
        expected.sort(null);
        assertEquals(expected, ids, "vectorized " + vectorized);
        java.util.Map<String, Long> m = io.lagoon.it.oracle.PlanMetrics.ofScans(df.queryExecution().executedPlan());
        assertTrue(m.get("lagoonRowGroupsSkippedByIndex") > 2, "row groups skipped: " + m);
      } finally {
        spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
      }
    }
  }
}
