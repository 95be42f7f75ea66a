package io.lagoon.it.procedures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.ddl.WarehouseListing;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.paimon.options.ExpireConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Tags, rollback and snapshot expiry through {@code CALL}, on every table kind: a tag keeps every
 * file it needs through expiry, rollback and compaction; expiry deletes exactly the files nothing
 * kept uses (counted on disk); every tag and kept snapshot reads its rows, in Lagoon and in Paimon
 * 1.3.1; and what Paimon does to the same tables (tags, expiry, rollback) reads right in Lagoon.
 */
@RequiresPaimon131
class SnapshotLifecycleSqlTest extends LagoonSparkTest {
  private static final AtomicInteger TABLES = new AtomicInteger();
  private static final Map<String, String> KINDS = Map.of(
      "append", "",
      "append_dv", "TBLPROPERTIES ('deletion-vectors.enabled' = 'true')",
      "pk", "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', 'num-sorted-run.compaction-trigger' = '3')",
      "pk_dv", "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', 'deletion-vectors.enabled' = 'true')",
      "pk_dynamic", "TBLPROPERTIES ('primary-key' = 'id')");

  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.life");
  }

  private static String create(String kind) {
    String name = kind + TABLES.incrementAndGet();
    sql("CREATE TABLE lake.life." + name + " (id INT" + (kind.startsWith("pk") ? " NOT NULL" : "") + ", v STRING) "
        + KINDS.get(kind));
    return name;
  }

  private static Path dir(String name) {
    return warehouse.resolve("life.db").resolve(name);
  }

  private static String call(String procedure, String args) {
    return String.join("|", rows("CALL lake.sys." + procedure + "(" + args + ")"));
  }

  /** Every file under the table folder (relative). */
  private static Set<String> files(String name) throws Exception {
    Set<String> out = new TreeSet<>();
    try (Stream<Path> s = Files.walk(dir(name))) {
      s.filter(Files::isRegularFile).forEach(p -> out.add(dir(name).relativize(p).toString()));
    }
    return out;
  }

  /** Lagoon's rows rendered as the Paimon oracle renders its own. */
  private static List<String> paimonStyle(String query) {
    return SparkRows.renderAll(sql(query));
  }

  private static List<String> at(String name, String version) {
    return rows("SELECT * FROM lake.life." + name + " VERSION AS OF " + version);
  }

  /**
   * Eight statements (inserts, deletes, updates; primary-key tables compact on the way), a tag
   * after the second and the fifth; expiry keeps the last two snapshots; every tag still reads its
   * rows and every file a tag or kept snapshot needs is there, in Lagoon and Paimon.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"append", "append_dv", "pk", "pk_dv", "pk_dynamic"})
  void expiryKeepsEveryFileATagNeedsAndDeletesTheRest(String kind) throws Exception {
    String t = create(kind);
    String q = "lake.life." + t;
    List<String> statements = List.of(
        "INSERT INTO " + q + " VALUES (1, 'a'), (2, 'b'), (3, 'c')",
        "INSERT INTO " + q + " VALUES (4, 'd'), (5, 'e')",
        "DELETE FROM " + q + " WHERE id = 2",
        "UPDATE " + q + " SET v = 'C' WHERE id = 3",
        "INSERT INTO " + q + " VALUES (6, 'f')",
        "DELETE FROM " + q + " WHERE id IN (1, 4)",
        "UPDATE " + q + " SET v = 'E' WHERE id = 5",
        "INSERT INTO " + q + " VALUES (7, 'g')");
    Map<String, List<String>> tagged = new LinkedHashMap<>();
    for (int i = 0; i < statements.size(); i++) {
      sql(statements.get(i));
      if (i == 1 || i == 4) {
        String tag = "after" + (i + 1);
        assertEquals("true", call("create_tag", "table => 'life." + t + "', tag => '" + tag + "'"));
        tagged.put(tag, rows("SELECT * FROM " + q));
      }
    }
    List<String> latest = rows("SELECT * FROM " + q);
    long last = PaimonOracle.latestSnapshotId(dir(t)).orElseThrow();
    Set<String> before = files(t);

    String expired = call("expire_snapshots", "table => 'life." + t + "', retain_max => 2, older_than => '2999-01-01 00:00:00'");
    assertEquals(Long.toString(last - 2), expired, "all but the last two snapshots expire");
    Set<String> after = files(t);
    Set<String> gone = new TreeSet<>(before);
    gone.removeAll(after);
    assertTrue(gone.stream().anyMatch(f -> f.startsWith("snapshot/snapshot-")), gone.toString());
    assertTrue(gone.stream().anyMatch(f -> f.contains("bucket-") || f.startsWith("index/")) || kind.equals("append"),
        "files only expired snapshots used are deleted: " + gone);
    assertFalse(after.stream().anyMatch(f -> !before.contains(f) && !f.endsWith("EARLIEST")), "expiry adds no files");

    for (Map.Entry<String, List<String>> e : tagged.entrySet()) {
      assertEquals(e.getValue(), at(t, "'" + e.getKey() + "'"), kind + " tag " + e.getKey());
      assertEquals(paimonStyle("SELECT * FROM " + q + " VERSION AS OF '" + e.getKey() + "'"),
          PaimonOracle.readRowsAtTag(dir(t), e.getKey()), "Paimon reads tag " + e.getKey());
    }
    for (long id = last - 1; id <= last; id++) {
      assertEquals(PaimonOracle.readRows(dir(t), id), SparkRows.renderAll(sql("SELECT * FROM " + q + " VERSION AS OF " + id)));
    }
    assertEquals(latest, rows("SELECT * FROM " + q));
    // Nothing left over: every remaining data, manifest and index file is used.
    assertEquals("", call("remove_orphan_files", "table => 'life." + t + "', older_than => '2999-01-01 00:00:00', dry_run => true"));

    // Deleting the tags takes what only they kept; the table still reads.
    assertEquals("true", call("delete_tag", "table => 'life." + t + "', tag => 'after2, after5'"));
    assertTrue(files(t).size() < after.size());
    assertEquals(latest, rows("SELECT * FROM " + q));
    assertEquals(paimonStyle("SELECT * FROM " + q), PaimonOracle.readRows(dir(t)));
    assertEquals("", call("remove_orphan_files", "table => 'life." + t + "', older_than => '2999-01-01 00:00:00', dry_run => true"));
  }

  @Test
  void tagsCarryPaimonsRetentionFieldsAndExpire() throws Exception {
    String t = create("append");
    String q = "lake.life." + t;
    sql("INSERT INTO " + q + " VALUES (1, 'a')");
    call("create_tag", "'life." + t + "', 'kept', 1, '1 d'");
    call("create_tag", "table => 'life." + t + "', tag => 'short', time_retained => '1 ms'");
    String json = Files.readString(dir(t).resolve("tag").resolve("tag-kept"));
    assertTrue(json.contains("\"tagCreateTime\"") && json.contains("\"tagTimeRetained\" : 86400.000000000"), json);
    // Paimon reads the tags and their retention.
    org.apache.paimon.tag.Tag paimonTag = PaimonOracle.openTable(dir(t)).tagManager().getOrThrow("kept");
    assertEquals(Duration.ofDays(1), paimonTag.getTagTimeRetained());
    assertEquals(paimonStyle("SELECT * FROM " + q + " VERSION AS OF 'kept'"), PaimonOracle.readRowsAtTag(dir(t), "kept"));
    Thread.sleep(5);
    // The next commit deletes the tag whose retention passed, as Paimon does.
    sql("INSERT INTO " + q + " VALUES (2, 'b')");
    assertFalse(Files.exists(dir(t).resolve("tag").resolve("tag-short")));
    assertTrue(Files.exists(dir(t).resolve("tag").resolve("tag-kept")));
    // expire_tags with older_than: every tag created before it.
    assertEquals("No expired tags.", call("expire_tags", "table => 'life." + t + "'"));
    assertEquals("kept", call("expire_tags", "table => 'life." + t + "', older_than => '2999-01-01 00:00:00'"));
    assertEquals(List.of(), PaimonOracle.openTable(dir(t)).tagManager().allTagNames());
  }

  @Test
  void renameReplaceFromTimestampAndTheTagLimit() throws Exception {
    String t = create("pk");
    String q = "lake.life." + t;
    for (int i = 1; i <= 4; i++) sql("INSERT INTO " + q + " VALUES (" + i + ", 'v" + i + "')");
    call("create_tag", "table => 'life." + t + "', tag => 'a', snapshot => 1");
    assertEquals("true", call("rename_tag", "table => 'life." + t + "', tag => 'a', target_tag => 'b'"));
    assertEquals(List.of("1,v1"), at(t, "'b'"));
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("CALL lake.sys.rename_tag(table => 'life." + t + "', tag => 'a', target_tag => 'c')").collect(),
        "Tag 'a'", "does not exist", "[b]");
    call("create_tag", "table => 'life." + t + "', tag => 'c', snapshot => 2");
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("CALL lake.sys.rename_tag(table => 'life." + t + "', tag => 'b', target_tag => 'c')").collect(),
        "Tag 'c'", "already exists");
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("CALL lake.sys.create_tag(table => 'life." + t + "', tag => 'c')").collect(), "Tag 'c'", "already exists");
    assertEquals("true", call("replace_tag", "table => 'life." + t + "', tag => 'b', snapshot => 3"));
    assertEquals(List.of("1,v1", "2,v2", "3,v3"), at(t, "'b'"));
    assertEquals(paimonStyle("SELECT * FROM " + q + " VERSION AS OF 'b'"), PaimonOracle.readRowsAtTag(dir(t), "b"));

    long third = PaimonOracle.openTable(dir(t)).snapshotManager().snapshot(3).timeMillis();
    assertEquals("fromts,3," + third + ",null",
        call("create_tag_from_timestamp", "table => 'life." + t + "', tag => 'fromts', timestamp => " + third));
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("CALL lake.sys.create_tag_from_timestamp(table => 'life." + t + "', tag => 'late', timestamp => 32503680000000)")
            .collect(), "no snapshot was committed at or after");

    // tag.num-retained-max: the oldest tags (by snapshot) go when a new one is made.
    sql("ALTER TABLE " + q + " SET TBLPROPERTIES ('tag.num-retained-max' = '2')");
    call("create_tag", "table => 'life." + t + "', tag => 'd', snapshot => 4");
    assertEquals(List.of("d", "fromts"), PaimonOracle.openTable(dir(t)).tagManager().allTagNames().stream().sorted().toList());
  }

  /** On a deletion-vector table each INSERT commits twice (its rows, then their compaction): ids are read back. */
  @Test
  void rollbackDeletesNewerSnapshotsTagsAndFilesAndPaimonAgrees() throws Exception {
    String t = create("pk_dv");
    String q = "lake.life." + t;
    List<Long> after = new ArrayList<>();
    List<List<String>> rowsAfter = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      sql("INSERT INTO " + q + " VALUES (" + i + ", 'v" + i + "'), (0, 'latest" + i + "')");
      after.add(PaimonOracle.latestSnapshotId(dir(t)).orElseThrow());
      rowsAfter.add(rows("SELECT * FROM " + q));
    }
    call("create_tag", "table => 'life." + t + "', tag => 'old', snapshot => " + after.get(0));
    call("create_tag", "table => 'life." + t + "', tag => 'newer', snapshot => " + after.get(3));
    long latestBefore = after.get(4);
    long mid = after.get(2);
    assertEquals("true", call("rollback", "table => 'life." + t + "', version => '" + mid + "'"));
    assertEquals(rowsAfter.get(2), rows("SELECT * FROM " + q));
    assertEquals(paimonStyle("SELECT * FROM " + q), PaimonOracle.readRows(dir(t)));
    assertEquals(mid, PaimonOracle.latestSnapshotId(dir(t)).orElseThrow());
    for (long id = mid + 1; id <= latestBefore; id++) assertFalse(Files.exists(dir(t).resolve("snapshot").resolve("snapshot-" + id)));
    assertEquals(List.of("old"), PaimonOracle.openTable(dir(t)).tagManager().allTagNames(), "the tag of a newer snapshot goes");
    assertEquals("", call("remove_orphan_files", "table => 'life." + t + "', older_than => '2999-01-01 00:00:00', dry_run => true"),
        "the files only newer snapshots used are deleted");
    // Writes go on from the rolled-back snapshot; rollback to a tag by name, to a snapshot id, by time.
    sql("INSERT INTO " + q + " VALUES (9, 'nine')");
    assertEquals("true", call("rollback", "table => 'life." + t + "', tag => 'old'"));
    assertEquals(rowsAfter.get(0), rows("SELECT * FROM " + q));
    sql("INSERT INTO " + q + " VALUES (8, 'eight'), (0, 'zero')");
    long eight = PaimonOracle.latestSnapshotId(dir(t)).orElseThrow();
    List<String> atEight = rows("SELECT * FROM " + q);
    assertEquals(List.of("0,zero", "1,v1", "8,eight"), atEight);
    sql("INSERT INTO " + q + " VALUES (7, 'seven')");
    long time = PaimonOracle.openTable(dir(t)).snapshotManager().snapshot(eight).timeMillis();
    assertEquals("Success roll back to snapshot: " + eight + " .",
        call("rollback_to_timestamp", "table => 'life." + t + "', timestamp => " + time));
    assertEquals(atEight, rows("SELECT * FROM " + q));
    assertEquals(paimonStyle("SELECT * FROM " + q), PaimonOracle.readRows(dir(t)));
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("CALL lake.sys.rollback(table => 'life." + t + "', snapshot => 42)").collect(), "snapshot 42", "does not exist");
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("CALL lake.sys.rollback(table => 'life." + t + "', version => 'nope')").collect(), "tag 'nope'", "does not exist");
  }

  @Test
  void retentionOptionsExpireAfterEachCommit() throws Exception {
    String t = create("append_dv");
    String q = "lake.life." + t;
    sql("ALTER TABLE " + q + " SET TBLPROPERTIES ('snapshot.num-retained.min' = '1', 'snapshot.num-retained.max' = '3')");
    for (int i = 1; i <= 6; i++) sql("INSERT INTO " + q + " VALUES (" + i + ", 'v')");
    sql("DELETE FROM " + q + " WHERE id < 3");
    List<Long> ids = new ArrayList<>();
    PaimonOracle.openTable(dir(t)).snapshotManager().snapshots().forEachRemaining(s -> ids.add(s.id()));
    assertEquals(3, ids.size(), ids.toString());
    assertEquals(List.of("3,v", "4,v", "5,v", "6,v"), rows("SELECT * FROM " + q));
    assertEquals(paimonStyle("SELECT * FROM " + q), PaimonOracle.readRows(dir(t)));
    assertEquals("", call("remove_orphan_files", "table => 'life." + t + "', older_than => '2999-01-01 00:00:00', dry_run => true"));
    // write-only turns it off, as in Paimon.
    sql("ALTER TABLE " + q + " SET TBLPROPERTIES ('write-only' = 'true')");
    for (int i = 7; i <= 9; i++) sql("INSERT INTO " + q + " VALUES (" + i + ", 'v')");
    assertEquals(6, PaimonOracle.openTable(dir(t)).snapshotManager().snapshotCount());
  }

  @Test
  void whatPaimonDoesToTheTableReadsRightInLagoon() throws Exception {
    String t = create("pk");
    String q = "lake.life." + t;
    for (int i = 1; i <= 6; i++) sql("INSERT INTO " + q + " VALUES (" + i + ", 'v" + i + "')");
    org.apache.paimon.table.FileStoreTable paimon = PaimonOracle.openTable(dir(t));
    paimon.createTag("p2", 2);
    paimon.newExpireSnapshots().config(ExpireConfig.builder().snapshotRetainMin(1).snapshotRetainMax(2)
        .snapshotTimeRetain(Duration.ZERO).build()).expire();
    assertEquals(List.of("1,v1", "2,v2"), at(t, "'p2'"));
    assertEquals(PaimonOracle.readRows(dir(t)), paimonStyle("SELECT * FROM " + q));
    // Lagoon tags and expires what Paimon left; Paimon rolls back to Lagoon's tag.
    call("create_tag", "table => 'life." + t + "', tag => 'l6'");
    sql("INSERT INTO " + q + " VALUES (7, 'v7')");
    call("expire_snapshots", "table => 'life." + t + "', retain_max => 1, older_than => '2999-01-01 00:00:00'");
    PaimonOracle.openTable(dir(t)).rollbackTo("l6");
    List<String> six = new ArrayList<>();
    for (int i = 1; i <= 6; i++) six.add(i + ",v" + i);
    assertEquals(six, rows("SELECT * FROM " + q));
    assertEquals(List.of("1,v1", "2,v2"), at(t, "'p2'"));
    // Paimon 1.3's rollback leaves the files of the snapshots it removed: Lagoon's orphan removal takes them.
    String orphans = call("remove_orphan_files", "table => 'life." + t + "', older_than => '2999-01-01 00:00:00'");
    assertTrue(orphans.contains("/bucket-") && orphans.contains("/manifest/manifest-list-"), orphans);
    assertEquals(six, rows("SELECT * FROM " + q));
    assertEquals(PaimonOracle.readRows(dir(t)), paimonStyle("SELECT * FROM " + q));
    assertEquals(List.of("1,v1", "2,v2"), at(t, "'p2'"));
    assertEquals(PaimonOracle.readRowsAtTag(dir(t), "p2"), paimonStyle("SELECT * FROM " + q + " VERSION AS OF 'p2'"));
    assertEquals("", call("remove_orphan_files", "table => 'life." + t + "', older_than => '2999-01-01 00:00:00', dry_run => true"));
  }
}
