package io.lagoon.it.procedures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.scan.ScanPlanner;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.ddl.WarehouseListing;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.LessThan;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code CALL sys.compact} on every table kind: fewer files, the same rows (Paimon 1.3.1 reads them
 * too), one COMPACT snapshot, nothing committed when there is nothing to do; partition selection;
 * z-order, Hilbert and plain sorting that let a range query skip files; every bad argument refused
 * with the table unchanged.
 */
@RequiresPaimon131
class CompactProcedureTest extends LagoonSparkTest {
  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.cp");
  }

  private static Path dir(String t) {
    return warehouse.resolve("cp.db").resolve(t);
  }

  private static FileStoreTable core(String t) throws Exception {
    return FileStoreTable.load(new FileIO(new Configuration()), new org.apache.hadoop.fs.Path(dir(t).toUri()), "cp." + t);
  }

  private static List<ManifestEntry> live(String t) throws Exception {
    FileStoreTable table = core(t);
    return new ArrayList<>(LiveFiles.read(table.manifests(), table.snapshots().latest().orElseThrow()));
  }

  private static long latest(String t) {
    return PaimonOracle.latestSnapshotId(dir(t)).orElseThrow();
  }

  private static List<String> compact(String args) {
    return rows("CALL lake.sys.compact(" + args + ")");
  }

  private static void sameInPaimon(String t) {
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM lake.cp." + t)), PaimonOracle.readRows(dir(t)));
  }

  private static void insertRounds(String t, int rounds, int rowsEach) {
    for (int r = 0; r < rounds; r++) {
      sql("INSERT INTO lake.cp." + t + " SELECT CAST(id AS INT), concat('v', id), CAST(id % 3 AS INT) FROM range("
          + r * rowsEach + ", " + (r + 1) * rowsEach + ")");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"append", "append_dv", "append_bucket", "pk", "pk_dv", "pk_dynamic"})
  void compactionLeavesFewerFilesAndTheSameRows(String kind) throws Exception {
    String t = "c_" + kind;
    String props = switch (kind) {
      case "append" -> "";
      case "append_dv" -> "TBLPROPERTIES ('deletion-vectors.enabled' = 'true')";
      case "append_bucket" -> "TBLPROPERTIES ('bucket' = '2', 'bucket-key' = 'id')";
      case "pk" -> "TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '2', 'write-only' = 'true')";
      case "pk_dv" -> "TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '2', 'deletion-vectors.enabled' = 'true')";
      default -> "TBLPROPERTIES ('primary-key' = 'id,p', 'write-only' = 'true')";
    };
    sql("CREATE TABLE lake.cp." + t + " (id INT NOT NULL, v STRING, p INT NOT NULL) PARTITIONED BY (p) " + props);
    insertRounds(t, 6, 30);
    sql("DELETE FROM lake.cp." + t + " WHERE id % 7 = 0");
    if (kind.startsWith("pk")) sql("INSERT INTO lake.cp." + t + " SELECT CAST(id AS INT), 'new', CAST(id % 3 AS INT) FROM range(0, 40)");
    List<String> before = rows("SELECT * FROM lake.cp." + t);
    int filesBefore = live(t).size();
    long snapshotBefore = latest(t);

    List<String> result = compact("table => 'cp." + t + "'");
    String[] r = result.get(0).split(",");
    assertEquals("true", r[0]);
    assertEquals(before, rows("SELECT * FROM lake.cp." + t));
    sameInPaimon(t);
    int filesAfter = live(t).size();
    assertTrue(filesAfter < filesBefore, kind + ": " + filesBefore + " files became " + filesAfter);
    assertEquals(snapshotBefore + 1, latest(t), "one snapshot");
    assertEquals("COMPACT", PaimonOracle.openTable(dir(t)).snapshotManager().latestSnapshot().commitKind().name());
    if (kind.endsWith("_dv")) {
      Snapshot s = core(t).snapshots().latest().orElseThrow();
      if (kind.startsWith("append")) assertEquals(null, s.indexManifest, "the rewritten files' vectors are gone");
    }
    if (kind.startsWith("pk")) {
      for (ManifestEntry e : live(t)) assertEquals(core(t).options().numLevels() - 1, e.file.level, "full: the top level");
    }
    // Nothing left to do: nothing is committed.
    compact("table => 'cp." + t + "'");
    assertEquals(snapshotBefore + 1, latest(t));
    assertEquals("", String.join("|", rows("CALL lake.sys.remove_orphan_files(table => 'cp." + t
        + "', older_than => '2999-01-01 00:00:00', dry_run => true)")));
  }

  @Test
  void partitionsWhereAndIdleTimeSelectWhatIsCompacted() throws Exception {
    String t = "sel";
    sql("CREATE TABLE lake.cp.sel (id INT NOT NULL, v STRING, p INT NOT NULL) PARTITIONED BY (p) TBLPROPERTIES ('write-only' = 'true')");
    insertRounds(t, 6, 30);
    Map<Integer, Integer> before = filesPerPartition(t);
    compact("table => 'cp.sel', partitions => 'p=0;p=1'");
    Map<Integer, Integer> after = filesPerPartition(t);
    assertEquals(1, after.get(0));
    assertEquals(1, after.get(1));
    assertEquals(before.get(2), after.get(2), "p=2 untouched");
    compact("table => 'cp.sel', where => 'p > 1 AND p < 3'");
    assertEquals(1, filesPerPartition(t).get(2));
    insertRounds(t, 2, 30);
    // Every partition just got a file: none is idle for an hour.
    long s = latest(t);
    compact("table => 'cp.sel', partition_idle_time => '1 h'");
    assertEquals(s, latest(t));
    List<String> minor = compact("table => 'cp.sel', options => 'target-file-size=1mb,compaction.min.file-num=10', "
        + "compact_strategy => 'minor'");
    assertEquals(s, latest(t), "minor: fewer than compaction.min.file-num small files: " + minor + " " + filesPerPartition(t));
    compact("table => 'cp.sel', options => 'compaction.min.file-num=2', compact_strategy => 'minor'");
    assertEquals(s + 1, latest(t));
    sameInPaimon(t);
  }

  private static Map<Integer, Integer> filesPerPartition(String t) throws Exception {
    Map<Integer, Integer> out = new HashMap<>();
    for (ManifestEntry e : live(t)) {
      int p = io.lagoon.core.data.BinaryRows.deserialize(e.partition, core(t).schema().partitionTypes()).getInt(0);
      out.merge(p, 1, Integer::sum);
    }
    return out;
  }

  /** Files a range query on both columns must read, by the files' min/max statistics. */
  private static long filesForBox(String t) throws Exception {
    FileStoreTable table = core(t);
    List<Filter> box = List.of(new GreaterThanOrEqual("x", 100), new LessThan("x", 200), new GreaterThanOrEqual("y", 100),
        new LessThan("y", 200));
    return new ScanPlanner(table).plan(table.snapshots().latest().orElseThrow(), box).filesScanned;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"zorder", "hilbert", "order"})
  void sortingClustersRowsSoRangeQueriesSkipFiles(String strategy) throws Exception {
    String t = "s_" + strategy;
    sql("CREATE TABLE lake.cp." + t + " (x INT, y INT, v STRING) TBLPROPERTIES ('target-file-size' = '64kb', "
        + "'deletion-vectors.enabled' = 'true')");
    for (int r = 0; r < 8; r++) {
      sql("INSERT INTO lake.cp." + t + " SELECT CAST(rand(" + r + ") * 1000 AS INT), CAST(rand(" + (r + 100)
          + ") * 1000 AS INT), repeat('v', 20) FROM range(0, 5000)");
    }
    sql("DELETE FROM lake.cp." + t + " WHERE x % 10 = 0");
    List<String> before = rows("SELECT * FROM lake.cp." + t);
    long unsorted = filesForBox(t);
    compact("table => 'cp." + t + "', order_strategy => '" + strategy + "', order_by => 'x,y'");
    assertEquals(before, rows("SELECT * FROM lake.cp." + t));
    sameInPaimon(t);
    long sorted = filesForBox(t);
    int files = live(t).size();
    assertTrue(sorted * 2 <= unsorted && sorted < files, strategy + ": the box reads " + sorted + " of " + files
        + " files after the sort, " + unsorted + " before");
    assertEquals(null, core(t).snapshots().latest().orElseThrow().indexManifest, "vectors of the rewritten files are gone");
  }

  /** A stream of small inserts into an append table compacts itself; write-only turns that off. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"'file.format' = 'parquet'", "'bucket' = '2', 'bucket-key' = 'id'", "'write-only' = 'true'"})
  void smallInsertsAreCompactedOnWriteUnlessWriteOnly(String props) throws Exception {
    String t = "auto" + Math.abs(props.hashCode());
    sql("CREATE TABLE lake.cp." + t + " (id INT, v STRING)" + (props.isEmpty() ? "" : " TBLPROPERTIES (" + props + ")"));
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      sql("INSERT INTO lake.cp." + t + " VALUES (" + i + ", 'v" + i + "')");
      expected.add(i + ",v" + i);
    }
    expected.sort(String::compareTo);
    assertEquals(expected, rows("SELECT * FROM lake.cp." + t));
    sameInPaimon(t);
    int files = live(t).size();
    int buckets = props.contains("bucket") ? 2 : 1;
    if (props.contains("write-only")) {
      assertEquals(20, files);
    } else {
      assertTrue(files < 5 * buckets, "files left after 20 single-row inserts: " + files);
      assertEquals(true, PaimonOracle.openTable(dir(t)).snapshotManager().snapshotCount() > 20, "COMPACT snapshots among them");
    }
  }

  @org.junit.jupiter.api.io.TempDir
  static Path tmp;

  /** Every table Paimon 1.3.1 and 0.9 wrote in the fixtures, compacted by Lagoon: same rows, tags too, in Lagoon and Paimon. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {io.lagoon.it.oracle.Fixtures.PAIMON_1_3_1, io.lagoon.it.oracle.Fixtures.PAIMON_0_9})
  void tablesPaimonWroteCompactAndReadTheSame(String fixture) throws Exception {
    String catalog = "cf" + fixture.replaceAll("[^a-z0-9]", "");
    Path copy = io.lagoon.it.oracle.Fixtures.copyWarehouse(fixture, java.nio.file.Files.createDirectory(tmp.resolve(catalog)));
    spark.conf().set("spark.sql.catalog." + catalog, "io.lagoon.spark.LagoonCatalog");
    spark.conf().set("spark.sql.catalog." + catalog + ".warehouse", copy.toUri().toString());
    spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
    try {
      int compacted = 0;
      for (io.lagoon.it.oracle.FixtureExpectations.Table table : io.lagoon.it.oracle.Fixtures.expectations(fixture).values()) {
        String name = catalog + "." + table.name();
        Path tableDir = copy.resolve(table.databaseName() + ".db").resolve(table.tableName());
        List<String> result = rows("CALL " + catalog + ".sys.compact(table => '" + table.name() + "')");
        if (!result.get(0).contains(",0,0,")) compacted++;
        assertEquals(table.latestRows(), SparkRows.renderAll(sql("SELECT * FROM " + name)), name + " after compaction");
        assertEquals(table.latestRows(), io.lagoon.it.oracle.FixtureExpectations.normalise(PaimonOracle.readRows(tableDir)),
            name + " read by Paimon after Lagoon's compaction");
        for (io.lagoon.it.oracle.FixtureExpectations.Tag tag : table.tags().values()) {
          assertEquals(tag.rows(), SparkRows.renderAll(sql("SELECT * FROM " + name + " VERSION AS OF '" + tag.name() + "'")));
        }
      }
      assertTrue(compacted >= 1, "some fixture table had something to compact: " + compacted);
    } finally {
      spark.conf().set("spark.sql.datetime.java8API.enabled", "false");
    }
  }

  @Test
  void badArgumentsAreRefusedWithTheTableUnchanged() {
    sql("CREATE TABLE lake.cp.bad (id INT NOT NULL, v STRING, p INT NOT NULL) PARTITIONED BY (p)");
    sql("CREATE TABLE lake.cp.badpk (id INT NOT NULL, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    insertRounds("bad", 3, 10);
    sql("INSERT INTO lake.cp.badpk VALUES (1, 'a')");
    String[][] cases = {
        {"table => 'cp.bad', order_strategy => 'zorder', order_by => 'id,nope'", "order_by", "'nope'", "[id, v, p]"},
        {"table => 'cp.bad', where => 'v = ''x'''", "where", "partition columns [p]"},
        {"table => 'cp.bad', where => 'p >'", "where", "not a condition"},
        {"table => 'cp.nope'", "cp.nope", "does not exist"},
        {"table => 'cp.badpk', order_strategy => 'zorder', order_by => 'v'", "order_strategy", "primary-key table"},
        {"table => 'cp.bad', partitions => 'p=1', where => 'p = 1'", "cannot both be given"},
        {"table => 'cp.bad', partitions => 'q=1'", "'q' is not a partition column"},
        {"table => 'cp.bad', compact_strategy => 'major'", "'full' or 'minor'"},
        {"table => 'cp.bad', order_strategy => 'random', order_by => 'id'", "'zorder', 'hilbert', 'order' or 'none'"},
        {"table => 'cp.bad', order_strategy => 'zorder'", "order_by", "is needed"},
        {"table => 'cp.bad', order_by => 'id'", "needs an order_strategy"},
        {"table => 'cp.bad', options => 'bucket=0'", "options", "bucket"},
        {"table => 'cp.bad', partition_idle_time => 'a while'", "partition_idle_time", "not a duration"},
    };
    for (String[] c : cases) {
      String[] expected = java.util.Arrays.copyOfRange(c, 1, c.length);
      WarehouseListing.assertRefusedUnchanged(warehouse, () -> sql("CALL lake.sys.compact(" + c[0] + ")").collect(), expected);
    }
  }
}
