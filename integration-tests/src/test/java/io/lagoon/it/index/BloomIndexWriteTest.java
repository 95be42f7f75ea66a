package io.lagoon.it.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.scan.ScanPlanner;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.junit.jupiter.api.Test;

/**
 * Lagoon writes Bloom filter indexes with every append file, as Paimon does: embedded in the
 * manifest when small, a file beside the data otherwise; sized for the file's distinct values
 * unless {@code items} is set. Lagoon skips by them, and so does Paimon 1.3.1: files the index
 * rules out are never opened even when their bytes are garbage. Bad index options are refused at
 * CREATE naming the option.
 */
@RequiresPaimon131
class BloomIndexWriteTest extends LagoonSparkTest {
  private static Path dir(String t) {
    return warehouse.resolve("bw.db").resolve(t);
  }

  private static FileStoreTable core(String t) throws Exception {
    return FileStoreTable.load(new FileIO(new Configuration()), new org.apache.hadoop.fs.Path(dir(t).toUri()), "bw." + t);
  }

  private static List<ManifestEntry> live(String t) throws Exception {
    FileStoreTable table = core(t);
    return new ArrayList<>(LiveFiles.read(table.manifests(), table.snapshots().latest().orElseThrow()));
  }

  private static int planned(String t, Filter f) throws Exception {
    FileStoreTable table = core(t);
    return new ScanPlanner(table).plan(table.snapshots().latest().orElseThrow(), List.of(f)).splits.stream()
        .mapToInt(s -> s.files.size()).sum();
  }

  /** Five inserts: file k holds ids k*1000+i with v = 'v-<id>', even ids only (odd ones are in range but absent). */
  private static void load(String t, String props) {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.bw");
    sql("CREATE TABLE lake.bw." + t + " (id BIGINT, v STRING, n INT) TBLPROPERTIES ('write-only' = 'true', " + props + ")");
    for (int k = 0; k < 5; k++) {
      sql("INSERT INTO lake.bw." + t + " SELECT id, concat('v-', id), CAST(id % 7 AS INT) FROM "
          + "(SELECT " + k + " * 1000 + id * 2 AS id FROM range(0, 400, 1, 1))");
    }
  }

  /** Paimon's own read with {@code v = value}: its rows' ids. */
  private static List<Long> paimonIdsWhereV(String t, String value) throws Exception {
    org.apache.paimon.table.FileStoreTable table = PaimonOracle.openTable(dir(t));
    ReadBuilder rb = table.newReadBuilder().withFilter(new PredicateBuilder(table.rowType())
        .equal(1, BinaryString.fromString(value)));
    List<Long> ids = new ArrayList<>();
    for (Split s : rb.newScan().plan().splits()) {
      try (RecordReader<InternalRow> r = rb.newRead().executeFilter().createReader(s)) {
        r.forEachRemaining(row -> ids.add(row.getLong(0)));
      }
    }
    return ids;
  }

  @Test
  void smallIndexesAreEmbeddedLargeOnesAreFilesAndBothEnginesSkipByThem() throws Exception {
    load("emb", "'file-index.bloom-filter.columns' = 'v,n', 'file-index.in-manifest-threshold' = '2 kb'");
    load("sep", "'file-index.bloom-filter.columns' = 'v', 'file-index.in-manifest-threshold' = '1 b'");
    for (String t : new String[] {"emb", "sep"}) {
      List<ManifestEntry> files = live(t);
      assertEquals(5, files.size());
      for (ManifestEntry e : files) {
        byte[] container;
        if (t.equals("emb")) {
          assertNotNull(e.file.embeddedIndex, "embedded under the threshold");
          container = e.file.embeddedIndex;
        } else {
          assertEquals(List.of(e.file.fileName + ".index"), e.file.extraFiles);
          container = Files.readAllBytes(dir(t).resolve("bucket-0").resolve(e.file.extraFiles.get(0)));
        }
        // Sized for the file's 400 distinct values at fpp 0.01, not Paimon's default million (600 KB a file).
        io.lagoon.index.FileIndexFile.Body v = io.lagoon.index.FileIndexFile.read(container).get("v")
            .get(io.lagoon.index.BloomFilterIndex.TYPE);
        assertEquals(io.lagoon.index.BloomFilterIndex.sized(400, 0.01).serialize().length, v.length());
      }
      assertEquals(0, planned(t, new EqualTo("v", "v-2001")), t + ": a miss plans no file");
      assertEquals(1, planned(t, new EqualTo("v", "v-2002")), t + ": a hit plans its file");
      assertEquals(List.of("2002"), sql("SELECT id FROM lake.bw." + t + " WHERE v = 'v-2002'").collectAsList().stream()
          .map(r -> String.valueOf(r.get(0))).toList());
      List<String> paimon = PaimonOracle.readRows(dir(t));
      assertEquals(2000, paimon.size(), "Paimon reads every row");
      assertEquals(io.lagoon.it.oracle.SparkRows.renderAll(sql("SELECT * FROM lake.bw." + t)), paimon, "row for row");
      String explain = sql("EXPLAIN SELECT * FROM lake.bw." + t + " WHERE v = 'v-2002' AND id > 5").first().getString(0);
      assertTrue(explain.contains("fileIndex=[EqualTo(v,v-2002)]"), explain);
      String none = sql("EXPLAIN SELECT * FROM lake.bw." + t + " WHERE id = 5").first().getString(0);
      assertTrue(!none.contains("fileIndex="), "no index on id: " + none);

      // Paimon skips by Lagoon's indexes: the files that cannot hold 'v-2002' are garbage now,
      // and Paimon's filtered read never opens them.
      for (ManifestEntry e : files) {
        Path p = dir(t).resolve("bucket-0").resolve(e.file.fileName);
        if (!planOnly(t, e, "v-2002")) Files.write(p, "not parquet".getBytes());
      }
      assertEquals(List.of(2002L), paimonIdsWhereV(t, "v-2002"));
      assertEquals(List.of(), paimonIdsWhereV(t, "v-2001"));
    }
  }

  /** Whether the file's index admits the value (Lagoon's evaluation of the one file). */
  private static boolean planOnly(String t, ManifestEntry e, String value) throws Exception {
    FileStoreTable table = core(t);
    return new ScanPlanner(table).plan(table.snapshots().latest().orElseThrow(), List.of(new EqualTo("v", value)))
        .splits.stream().anyMatch(s -> s.files.stream().anyMatch(f -> f.fileName.equals(e.file.fileName)));
  }

  @Test
  void compactionRewritesTheIndexesAndOrphanRemovalKeepsThem() throws Exception {
    spark.stop();
    spark = newSession(warehouse, java.util.Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    load("cmp", "'file-index.bloom-filter.columns' = 'v', 'file-index.in-manifest-threshold' = '1 b'");
    sql("CALL lake.sys.compact(table => 'bw.cmp')");
    List<ManifestEntry> files = live("cmp");
    assertEquals(1, files.size());
    assertEquals(List.of(files.get(0).file.fileName + ".index"), files.get(0).file.extraFiles);
    // Expiry deletes the replaced files with their indexes; orphan removal then finds nothing to take.
    sql("CALL lake.sys.expire_snapshots(table => 'bw.cmp', retain_max => 1)");
    sql("CALL lake.sys.remove_orphan_files(table => 'bw.cmp', older_than => '2999-01-01 00:00:00')");
    assertTrue(Files.exists(dir("cmp").resolve("bucket-0").resolve(files.get(0).file.extraFiles.get(0))),
        "the live file's index stays");
    try (var s = Files.list(dir("cmp").resolve("bucket-0"))) {
      assertEquals(2, s.count(), "the replaced files and their indexes are gone");
    }
    assertEquals(0, planned("cmp", new EqualTo("v", "v-2001")));
    assertEquals(1L, sql("SELECT count(*) FROM lake.bw.cmp WHERE v = 'v-4798'").first().getLong(0));
  }

  @Test
  void badIndexOptionsAreRefusedAtCreate() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.bw");
    Exception unknown = assertThrows(Exception.class, () -> sql("CREATE TABLE lake.bw.bad1 (id INT, v STRING) "
        + "TBLPROPERTIES ('file-index.bloom-filter.columns' = 'w')"));
    assertTrue(unknown.getMessage().contains("'file-index.bloom-filter.columns'") && unknown.getMessage().contains("'w'"),
        unknown.getMessage());
    Exception type = assertThrows(Exception.class, () -> sql("CREATE TABLE lake.bw.bad2 (id INT, d DECIMAL(10, 2)) "
        + "TBLPROPERTIES ('file-index.bloom-filter.columns' = 'd')"));
    assertTrue(type.getMessage().contains("DECIMAL"), type.getMessage());
    Exception fpp = assertThrows(Exception.class, () -> sql("CREATE TABLE lake.bw.bad3 (id INT) "
        + "TBLPROPERTIES ('file-index.bloom-filter.columns' = 'id', 'file-index.bloom-filter.id.fpp' = '2')"));
    assertTrue(fpp.getMessage().contains("'file-index.bloom-filter.id.fpp'"), fpp.getMessage());
    assertTrue(!Files.exists(dir("bad1")) && !Files.exists(dir("bad2")) && !Files.exists(dir("bad3")));
  }

  @Test
  void rewriteFileIndexIndexesExistingFilesWithoutRewritingThem() throws Exception {
    spark.stop();
    spark = newSession(warehouse, java.util.Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    load("rw", "'file-index.in-manifest-threshold' = '1 b'");
    List<ManifestEntry> before = live("rw");
    assertEquals(2, planned("rw", new EqualTo("v", "v-2001")), "no index yet: the two files whose string range holds it");
    java.util.Map<String, Long> sizes = new java.util.HashMap<>();
    for (ManifestEntry e : before) sizes.put(e.file.fileName, Files.size(dir("rw").resolve("bucket-0").resolve(e.file.fileName)));

    sql("ALTER TABLE lake.bw.rw SET TBLPROPERTIES ('file-index.bloom-filter.columns' = 'v')");
    org.apache.spark.sql.Row r = sql("CALL lake.sys.rewrite_file_index(table => 'bw.rw')").first();
    assertEquals(5, r.getInt(1));
    List<ManifestEntry> after = live("rw");
    assertEquals(5, after.size());
    for (ManifestEntry e : after) {
      assertTrue(sizes.containsKey(e.file.fileName), "the same data files");
      assertEquals(sizes.get(e.file.fileName), Files.size(dir("rw").resolve("bucket-0").resolve(e.file.fileName)));
      assertEquals(1, e.file.extraFiles.size());
    }
    assertEquals("COMPACT", core("rw").snapshots().latest().orElseThrow().commitKind.name());
    assertEquals(0, planned("rw", new EqualTo("v", "v-2001")));
    assertEquals(1, planned("rw", new EqualTo("v", "v-2002")));
    assertEquals(1L, sql("SELECT count(*) FROM lake.bw.rw WHERE v = 'v-2002'").first().getLong(0));
    long snapshot = core("rw").snapshots().latest().orElseThrow().id;
    sql("CALL lake.sys.rewrite_file_index(table => 'bw.rw')");
    assertEquals(snapshot, core("rw").snapshots().latest().orElseThrow().id, "nothing to change commits nothing");

    // Paimon finds the new index files through the entries and skips by them.
    for (ManifestEntry e : after) {
      if (!planOnly("rw", e, "v-2002")) Files.write(dir("rw").resolve("bucket-0").resolve(e.file.fileName), "x".getBytes());
    }
    assertEquals(List.of(2002L), paimonIdsWhereV("rw", "v-2002"));

    // Bad arguments: a clear error, the table as it was.
    Exception unknown = assertThrows(Exception.class, () -> sql("CALL lake.sys.rewrite_file_index(table => 'bw.rw', colums => 'v')"));
    assertTrue(unknown.getMessage().contains("colums"), unknown.getMessage());
    Exception where = assertThrows(Exception.class,
        () -> sql("CALL lake.sys.rewrite_file_index(table => 'bw.rw', where => 'nope = 1')"));
    assertTrue(where.getMessage().contains("nope"), where.getMessage());
    Exception missing = assertThrows(Exception.class, () -> sql("CALL lake.sys.rewrite_file_index(table => 'bw.none')"));
    assertTrue(missing.getMessage().contains("bw.none"), missing.getMessage());
    assertEquals(snapshot, core("rw").snapshots().latest().orElseThrow().id);
  }

  /** {@code items} and {@code fpp} set: every file's filter has the size Paimon gives those settings, and both engines skip by it. */
  @Test
  void itemsAndFppSizeTheFilterAsSet() throws Exception {
    load("items", "'file-index.bloom-filter.columns' = 'v', 'file-index.bloom-filter.v.items' = '5000', "
        + "'file-index.bloom-filter.v.fpp' = '0.05', 'file-index.in-manifest-threshold' = '1 b'");
    int expected = io.lagoon.index.BloomFilterIndex.sized(5000, 0.05).serialize().length;
    assertTrue(expected != io.lagoon.index.BloomFilterIndex.sized(400, 0.01).serialize().length);
    for (ManifestEntry e : live("items")) {
      byte[] container = Files.readAllBytes(dir("items").resolve("bucket-0").resolve(e.file.extraFiles.get(0)));
      assertEquals(expected, io.lagoon.index.FileIndexFile.read(container).get("v").get(io.lagoon.index.BloomFilterIndex.TYPE)
          .length(), "sized for 5000 items at fpp 0.05");
    }
    assertEquals(0, planned("items", new EqualTo("v", "v-3001")));
    assertEquals(List.of(3002L), paimonIdsWhereV("items", "v-3002"));
    assertEquals(List.of("1"), rows("SELECT count(*) FROM lake.bw.items WHERE v = 'v-3002'"));
  }

  /** An embedded index that cannot be read (garbage, or cut short) rules nothing out: its file is read. */
  @Test
  void aCorruptEmbeddedIndexIsIgnoredAndItsFileRead() throws Exception {
    load("corrupt", "'file-index.bloom-filter.columns' = 'v', 'file-index.in-manifest-threshold' = '2 kb'");
    FileStoreTable t = core("corrupt");
    List<ManifestEntry> files = live("corrupt");
    files.sort(java.util.Comparator.comparingLong(e -> e.file.minSequenceNumber));
    ManifestEntry first = files.get(0); // ids 0..798
    ManifestEntry second = files.get(1); // ids 1000..1798
    byte[] garbage = "not an index container at all".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] cut = java.util.Arrays.copyOf(second.file.embeddedIndex, second.file.embeddedIndex.length / 2);
    t.newRewrite().replace(List.of(first, second), List.of(
        new ManifestEntry(first.kind, first.partition, first.bucket, first.totalBuckets, first.file.withIndex(garbage, List.of())),
        new ManifestEntry(second.kind, second.partition, second.bucket, second.totalBuckets, second.file.withIndex(cut, List.of()))))
        .commit();
    // v-1 and v-1001 are absent and in range of both files: only the other three files' filters rule them out.
    assertEquals(2, planned("corrupt", new EqualTo("v", "v-1001")), "the two files without a readable index are read");
    assertEquals(List.of("0"), rows("SELECT count(*) FROM lake.bw.corrupt WHERE v = 'v-1001'"));
    assertEquals(List.of("1"), rows("SELECT count(*) FROM lake.bw.corrupt WHERE v = 'v-2'"));
    assertEquals(List.of("1"), rows("SELECT count(*) FROM lake.bw.corrupt WHERE v = 'v-1002'"));
    assertEquals(List.of("2000"), rows("SELECT count(*) FROM lake.bw.corrupt"));
  }

  /**
   * {@code where} selects partitions: only their files get indexes, in a Spark stage of several
   * tasks, one commit; the other partitions' files stay as they were.
   */
  @Test
  void rewriteFileIndexWhereIndexesOnlyTheSelectedPartitionsInParallelTasks() throws Exception {
    spark.stop();
    spark = newSession(warehouse, java.util.Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.bw");
    sql("CREATE TABLE lake.bw.parts (id BIGINT, v STRING, p INT) PARTITIONED BY (p) TBLPROPERTIES ('write-only' = 'true', "
        + "'file-index.in-manifest-threshold' = '1 b')");
    for (int k = 0; k < 3; k++) {
      sql("INSERT INTO lake.bw.parts SELECT /*+ REPARTITION(1) */ id, concat('v-', id), CAST(id % 3 AS INT) FROM "
          + "range(" + (k * 1000) + ", " + (k * 1000 + 300) + ", 1, 1)");
    }
    sql("ALTER TABLE lake.bw.parts SET TBLPROPERTIES ('file-index.bloom-filter.columns' = 'v')");
    long before = core("parts").snapshots().latest().orElseThrow().id;
    java.util.concurrent.atomic.AtomicInteger widest = new java.util.concurrent.atomic.AtomicInteger();
    org.apache.spark.scheduler.SparkListener stages = new org.apache.spark.scheduler.SparkListener() {
      @Override
      public void onStageCompleted(org.apache.spark.scheduler.SparkListenerStageCompleted s) {
        widest.accumulateAndGet(s.stageInfo().numTasks(), Math::max);
      }
    };
    spark.sparkContext().addSparkListener(stages);
    try {
      org.apache.spark.sql.Row r = sql("CALL lake.sys.rewrite_file_index(table => 'bw.parts', where => 'p = 1')").first();
      assertEquals(3, r.getInt(1), "the three files of p = 1");
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } finally {
      spark.sparkContext().removeSparkListener(stages);
    }
    assertTrue(widest.get() >= 2, "the files were indexed by a stage of " + widest.get() + " task(s)");
    assertEquals(before + 1, core("parts").snapshots().latest().orElseThrow().id, "one commit");
    Path table = dir("parts");
    int indexed = 0;
    for (ManifestEntry e : live("parts")) {
      boolean p1 = Files.exists(table.resolve("p=1").resolve("bucket-0").resolve(e.file.fileName));
      assertEquals(p1 ? 1 : 0, e.file.extraFiles.size(), e.file.fileName + (p1 ? " in p = 1" : " outside p = 1"));
      if (p1) indexed++;
    }
    assertEquals(3, indexed);
    assertEquals(List.of("1"), rows("SELECT count(*) FROM lake.bw.parts WHERE v = 'v-1003'"));
    assertEquals(List.of("300"), rows("SELECT count(*) FROM lake.bw.parts WHERE p = 1"));
  }
}
