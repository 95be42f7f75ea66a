package io.lagoon.it.dv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.KeyValueFileReader;
import io.lagoon.core.mergetree.compact.TableCompaction;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Primary-key tables in deletion-vector mode written by Lagoon through SQL: over many commits
 * every key keeps exactly one live row above level 0 (the rest marked in vectors), level-0 files
 * stay invisible until compaction moves them up, and full compaction, overwrite and ALTER treat
 * the vectors right.
 */
class PkDeletionVectorsWriteTest extends LagoonSparkTest {
  @BeforeAll
  static void ns() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.dvw");
  }

  private static FileStoreTable table(String name) throws IOException {
    Path dir = warehouse.resolve("dvw.db").resolve(name);
    return FileStoreTable.load(new FileIO(spark.sparkContext().hadoopConfiguration()),
        new org.apache.hadoop.fs.Path(dir.toUri().toString()), "dvw." + name);
  }

  private static List<IndexManifestEntry> vectorEntries(FileStoreTable t) throws IOException {
    Snapshot s = t.snapshots().latest().orElseThrow();
    List<IndexManifestEntry> out = new ArrayList<>();
    if (s.indexManifest == null) return out;
    for (IndexManifestEntry e : t.manifests().readIndexManifest(s.indexManifest)) {
      if (e.isDeletionVectors()) out.add(e);
    }
    return out;
  }

  private static int vectorCount(FileStoreTable t) throws IOException {
    int n = 0;
    for (IndexManifestEntry e : vectorEntries(t)) n += e.ranges.size();
    return n;
  }

  private static List<ManifestEntry> live(FileStoreTable t) throws IOException {
    return new ArrayList<>(LiveFiles.read(t.manifests(), t.snapshots().latest().orElseThrow()));
  }

  private static List<String> render(Map<String, String> m) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, String> e : m.entrySet()) out.add(e.getKey() + "," + e.getValue());
    out.sort(String::compareTo);
    return out;
  }

  /**
   * A load, then 25 commits of upserts and deletes over 10 partitions x 4 buckets, with small
   * target files so each level holds several: the table always equals the last write of every
   * key, nothing stays on level 0, every vector points at a live file, and the table ends up
   * holding hundreds of vectors.
   */
  @Test
  void manyCommitsKeepOneLiveRowPerKeyWithHundredsOfVectors() throws IOException {
    String t = "lake.dvw.many";
    sql("CREATE TABLE " + t + " (dt INT NOT NULL, id INT NOT NULL, v BIGINT, s STRING, op STRING) PARTITIONED BY (dt)"
        + " TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '4', 'rowkind.field' = 'op',"
        + " 'deletion-vectors.enabled' = 'true', 'target-file-size' = '8 kb')");
    FileStoreTable table = table("many");
    Random rnd = new Random(4);
    Map<String, String> expected = new TreeMap<>();
    sql("INSERT INTO " + t + " SELECT CAST(id % 10 AS INT), CAST(id / 10 AS INT), -id, 'load', '+I' FROM range(0, 20000)");
    for (long id = 0; id < 20000; id++) expected.put((id % 10) + "," + (id / 10), -id + ",load");
    for (int c = 0; c < 25; c++) {
      List<String> values = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < 120; i++) {
        int dt = rnd.nextInt(10);
        int id = rnd.nextInt(2000);
        String key = dt + "," + id;
        if (!seen.add(key)) continue;
        boolean delete = c > 2 && expected.containsKey(key) && rnd.nextInt(6) == 0;
        long v = c * 1000L + i;
        values.add("(" + dt + ", " + id + ", " + v + ", 's" + (v % 7) + "', '" + (delete ? "-D" : "+I") + "')");
        if (delete) expected.remove(key);
        else expected.put(key, v + ",s" + (v % 7));
      }
      sql("INSERT INTO " + t + " VALUES " + String.join(", ", values));
      for (ManifestEntry e : live(table)) {
        assertTrue(e.file.level > 0, "commit " + c + ": level-0 file left after the write: " + e.file.fileName);
        assertEquals(0L, (long) e.file.deleteRowCount, "no retraction is stored above level 0: " + e.file.fileName);
      }
      if (c % 8 == 7) assertEquals(render(expected), rows("SELECT dt, id, v, s FROM " + t), "after commit " + c);
    }
    assertEquals(render(expected), rows("SELECT dt, id, v, s FROM " + t));
    assertEquals(List.of(), rows("SELECT dt, id FROM " + t + " GROUP BY dt, id HAVING count(*) > 1"));

    Set<String> liveNames = new HashSet<>();
    for (ManifestEntry e : live(table)) liveNames.add(e.file.fileName);
    int vectors = 0;
    for (IndexManifestEntry e : vectorEntries(table)) {
      assertTrue(Files.exists(warehouse.resolve("dvw.db").resolve("many").resolve("index").resolve(e.fileName)));
      for (var r : e.ranges) {
        assertTrue(liveNames.contains(r.dataFile), "vector of a file no longer live: " + r.dataFile);
        vectors++;
      }
    }
    assertTrue(vectors >= 100, "hundreds of vectors expected, found " + vectors);
    // The rows the vectors hide are really in the files: their count is the difference.
    long stored = 0;
    for (ManifestEntry e : live(table)) stored += e.file.rowCount;
    long deleted = 0;
    for (IndexManifestEntry e : vectorEntries(table)) for (var r : e.ranges) deleted += r.cardinality;
    assertEquals(expected.size(), stored - deleted, "stored rows minus rows marked deleted");
    // Positions line up with the metadata column a row-level operation would use.
    assertEquals(expected.size(), rows("SELECT _file, _pos FROM " + t).size());
  }

  /**
   * As in Paimon, rows on level 0 are not visible: a write that does not compact ('write-only')
   * leaves its rows hidden until a later write pushes level 0 up.
   */
  @Test
  void levelZeroRowsAppearOnceCompacted() {
    String t = "lake.dvw.hidden";
    sql("CREATE TABLE " + t + " (id INT NOT NULL, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2',"
        + " 'deletion-vectors.enabled' = 'true')");
    sql("INSERT INTO " + t + " VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    sql("ALTER TABLE " + t + " SET TBLPROPERTIES ('write-only' = 'true')");
    sql("INSERT INTO " + t + " VALUES (1, 'a2'), (4, 'd')");
    assertEquals(list("1,a", "2,b", "3,c"), rows("SELECT * FROM " + t));
    sql("ALTER TABLE " + t + " SET TBLPROPERTIES ('write-only' = 'false')");
    sql("INSERT INTO " + t + " VALUES (2, 'b2')");
    assertEquals(list("1,a2", "2,b2", "3,c", "4,d"), rows("SELECT * FROM " + t));
  }

  /** Full compaction leaves every bucket one run of files without vectors, the rows unchanged. */
  @Test
  void fullCompactionRewritesFilesWithVectors() throws IOException {
    String t = "lake.dvw.full";
    sql("CREATE TABLE " + t + " (id INT NOT NULL, v BIGINT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2',"
        + " 'deletion-vectors.enabled' = 'true')");
    sql("INSERT INTO " + t + " SELECT CAST(id AS INT), id FROM range(0, 1000)");
    for (int i = 1; i <= 3; i++) {
      sql("INSERT INTO " + t + " SELECT CAST(id * 7 % 1000 AS INT), id + " + (i * 10000) + " FROM range(0, 50)");
    }
    List<String> before = rows("SELECT * FROM " + t);
    FileStoreTable table = table("full");
    assertTrue(vectorCount(table) > 0, "upserts left vectors");
    TableCompaction.full(table, KeyValueFileReader.buildForCompaction(spark, table), null).orElseThrow();
    assertEquals(0, vectorCount(table), "no vector after a full compaction");
    for (ManifestEntry e : live(table)) assertEquals(table.options().numLevels() - 1, e.file.level);
    assertEquals(before, rows("SELECT * FROM " + t));
    assertEquals(1000, rows("SELECT * FROM " + t).size());
  }

  /** INSERT OVERWRITE of a partition drops that partition's vectors with its files. */
  @Test
  void overwriteDropsThePartitionsVectors() throws IOException {
    String t = "lake.dvw.over";
    sql("CREATE TABLE " + t + " (dt STRING NOT NULL, id INT NOT NULL, v BIGINT) PARTITIONED BY (dt)"
        + " TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '2', 'deletion-vectors.enabled' = 'true')");
    for (String dt : List.of("a", "b")) {
      sql("INSERT INTO " + t + " SELECT '" + dt + "', CAST(id AS INT), id FROM range(0, 200)");
      sql("INSERT INTO " + t + " SELECT '" + dt + "', CAST(id * 3 AS INT), -id FROM range(0, 20)");
    }
    FileStoreTable table = table("over");
    Set<String> partsWithVectors = new HashSet<>();
    for (IndexManifestEntry e : vectorEntries(table)) partsWithVectors.add(new String(e.partition, java.nio.charset.StandardCharsets.ISO_8859_1));
    assertEquals(2, partsWithVectors.size(), "both partitions carry vectors");
    sql("INSERT OVERWRITE " + t + " PARTITION (dt = 'a') SELECT CAST(id AS INT), 1 FROM range(0, 5)");
    assertEquals(1, vectorEntries(table).stream().map(e -> new String(e.partition,
        java.nio.charset.StandardCharsets.ISO_8859_1)).distinct().count(), "partition a's vectors are gone");
    assertEquals(list("a,0,1", "a,1,1", "a,2,1", "a,3,1", "a,4,1"), rows("SELECT * FROM " + t + " WHERE dt = 'a'"));
    assertEquals(200, rows("SELECT * FROM " + t + " WHERE dt = 'b'").size());
    assertEquals(list("b,3,-1"), rows("SELECT * FROM " + t + " WHERE dt = 'b' AND id = 3"));
    sql("TRUNCATE TABLE " + t);
    assertEquals(List.of(), vectorEntries(table), "TRUNCATE drops every vector");
    assertEquals(List.of(), rows("SELECT * FROM " + t));
  }

  /** The mode is fixed at CREATE: toggling it would read compacted files the wrong way. */
  @Test
  void alterCannotToggleDeletionVectors() {
    sql("CREATE TABLE lake.dvw.toggle (id INT NOT NULL, v INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1',"
        + " 'deletion-vectors.enabled' = 'true')");
    sql("INSERT INTO lake.dvw.toggle VALUES (1, 1)");
    Exception e = assertThrows(Exception.class,
        () -> sql("ALTER TABLE lake.dvw.toggle SET TBLPROPERTIES ('deletion-vectors.enabled' = 'false')"));
    assertTrue(e.getMessage().contains("deletion-vectors.enabled") && e.getMessage().contains("CREATE TABLE"),
        e.getMessage());
    sql("CREATE TABLE lake.dvw.plain (id INT NOT NULL, v INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    e = assertThrows(Exception.class,
        () -> sql("ALTER TABLE lake.dvw.plain SET TBLPROPERTIES ('deletion-vectors.enabled' = 'true')"));
    assertTrue(e.getMessage().contains("deletion-vectors.enabled"), e.getMessage());
    assertFalse(rows("SHOW TBLPROPERTIES lake.dvw.plain").stream().anyMatch(r -> r.startsWith("deletion-vectors")));
    assertEquals(list("1,1"), rows("SELECT * FROM lake.dvw.toggle"));
  }
}
