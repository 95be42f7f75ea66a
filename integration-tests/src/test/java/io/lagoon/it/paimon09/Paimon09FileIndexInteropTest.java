package io.lagoon.it.paimon09;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.scan.ScanPlanner;
import io.lagoon.core.table.FileStoreTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.sources.EqualTo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bloom filter and bitmap indexes between Lagoon and Paimon 0.9, both ways: Lagoon skips files by
 * the indexes Paimon 0.9 writes; Paimon 0.9 skips files by Lagoon's (the files they rule out are
 * garbage in this test, and Paimon's filtered query never opens them).
 */
@RequiresPaimon09
class Paimon09FileIndexInteropTest {
  @TempDir
  static Path tmp;

  private static Paimon09Session session;
  private static Path warehouse;

  @BeforeAll
  static void start() {
    warehouse = tmp.resolve("warehouse");
    session = Paimon09Session.builder(warehouse)
        .lakeCatalog(Paimon09Session.LAGOON_CATALOG, warehouse)
        .conf("spark.sql.catalog.paimon.cache-enabled", "false")
        .create();
    session.sql("CREATE DATABASE IF NOT EXISTS paimon.fi");
  }

  @AfterAll
  static void stop() {
    if (session != null) session.close();
  }

  private static FileStoreTable core(String t) throws Exception {
    return FileStoreTable.load(new FileIO(new Configuration()),
        new org.apache.hadoop.fs.Path(warehouse.resolve("fi.db").resolve(t).toUri()), "fi." + t);
  }

  /** Data files of the latest snapshot the planner keeps for {@code v = value}. */
  private static List<String> planned(String t, String value) throws Exception {
    FileStoreTable table = core(t);
    List<String> out = new ArrayList<>();
    new ScanPlanner(table).plan(table.snapshots().latest().orElseThrow(), List.of(new EqualTo("v", value)))
        .splits.forEach(s -> s.files.forEach(f -> out.add(f.fileName)));
    return out;
  }

  /** Five writes; write k holds even ids k*1000 .. k*1000+398, v = 'v-<id>'. */
  private static void load(String catalog, String t) {
    for (int k = 0; k < 5; k++) {
      session.sql("INSERT INTO " + catalog + ".fi." + t + " SELECT id, concat('v-', CAST(id AS STRING)) FROM "
          + "(SELECT " + k + " * 1000 + id * 2 AS id FROM range(0, 200, 1, 1))");
    }
  }

  private static final String BLOOM = "'file-index.bloom-filter.columns' = 'v', 'file-index.bloom-filter.v.items' = '200'";
  private static final String BITMAP = "'file-index.bitmap.columns' = 'v'";

  @Test
  void lagoonSkipsByTheIndexesPaimon09Wrote() throws Exception {
    lagoonSkipsByPaimon09s("pw", BLOOM);
    lagoonSkipsByPaimon09s("pwb", BITMAP);
  }

  private static void lagoonSkipsByPaimon09s(String pw, String index) throws Exception {
    session.sql("CREATE TABLE paimon.fi." + pw + " (id BIGINT, v STRING) TBLPROPERTIES ('write-only' = 'true', "
        + index + ")");
    load("paimon", pw);
    List<ManifestEntry> live = new ArrayList<>(LiveFiles.read(core(pw).manifests(),
        core(pw).snapshots().latest().orElseThrow()));
    assertEquals(5, live.size());
    assertEquals(List.of(), planned(pw, "v-2001"), "a value inside the range of two files, in none: no file");
    assertEquals(1, planned(pw, "v-2002").size());
    assertEquals(1L, session.sql("SELECT count(*) FROM lake.fi." + pw + " WHERE v = 'v-2002'").first().getLong(0));
  }

  @Test
  void paimon09SkipsByTheIndexesLagoonWrote() throws Exception {
    paimon09SkipsByLagoons("lw", "'file-index.bloom-filter.columns' = 'v'");
    paimon09SkipsByLagoons("lwb", BITMAP);
  }

  private static void paimon09SkipsByLagoons(String lw, String index) throws Exception {
    session.sql("CREATE TABLE lake.fi." + lw + " (id BIGINT, v STRING) TBLPROPERTIES ('write-only' = 'true', "
        + index + ")");
    load("lake", lw);
    List<String> keep = planned(lw, "v-2002");
    assertEquals(1, keep.size());
    int broken = 0;
    for (ManifestEntry e : LiveFiles.read(core(lw).manifests(), core(lw).snapshots().latest().orElseThrow())) {
      if (keep.contains(e.file.fileName)) continue;
      Files.write(warehouse.resolve("fi.db").resolve(lw).resolve("bucket-0").resolve(e.file.fileName), "x".getBytes());
      broken++;
    }
    assertEquals(4, broken);
    assertEquals(List.of("2002"), session.sql("SELECT id FROM paimon." + "fi." + lw + " WHERE v = 'v-2002'").collectAsList()
        .stream().map(r -> String.valueOf(r.get(0))).toList(), "Paimon 0.9 opened only the file Lagoon's index admits");
    assertTrue(session.sql("SELECT id FROM paimon.fi." + lw + " WHERE v = 'v-2001'").collectAsList().isEmpty());
  }

  /**
   * Paimon 0.9 has no bit-sliced index and fails a filtered read of a file that carries one (its
   * own error, as for such a table Paimon 1.x wrote); reads without filters still work. The README
   * says so beside the option.
   */
  @Test
  void paimon09CannotFilterFilesWithBitSlicedIndexes() {
    session.sql("CREATE TABLE lake.fi.bsi (id BIGINT, v STRING) TBLPROPERTIES ('write-only' = 'true', "
        + "'file-index.bsi.columns' = 'id', 'file-index.in-manifest-threshold' = '1 b')");
    load("lake", "bsi");
    assertEquals(1000L, session.sql("SELECT count(*) FROM paimon.fi.bsi").first().getLong(0));
    Throwable e = org.junit.jupiter.api.Assertions.assertThrows(Throwable.class,
        () -> session.sql("SELECT id FROM paimon.fi.bsi WHERE id = 2002").collectAsList());
    String messages = io.lagoon.it.ddl.WarehouseListing.messages(e);
    assertTrue(messages.contains("Can't find file index for type: bsi"), messages);
    assertEquals(1L, session.sql("SELECT count(*) FROM lake.fi.bsi WHERE id = 2002").first().getLong(0));
  }
}
