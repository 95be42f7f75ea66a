package io.lagoon.it.paimon09;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tags, expiry, rollback and branches made by either engine, in one session with both engines'
 * SQL extensions (a CALL on Paimon's catalog goes to Paimon's procedures, one on Lagoon's to
 * Lagoon's): after every step Paimon 0.9 reads what Lagoon reads, latest and tags.
 */
@RequiresPaimon09
class Paimon09LifecycleInteropTest {
  @TempDir
  static Path tmp;

  private static Paimon09Session session;
  private static Path warehouse;

  @BeforeAll
  static void start() {
    warehouse = tmp.resolve("warehouse");
    session = Paimon09Session.builder(warehouse)
        .lakeCatalog(Paimon09Session.LAGOON_CATALOG, warehouse)
        .extension("io.lagoon.spark.extensions.LagoonSparkSessionExtensions")
        .conf("spark.sql.catalog.paimon.cache-enabled", "false")
        .create();
    session.sql("CREATE DATABASE IF NOT EXISTS paimon.lc");
  }

  @AfterAll
  static void stop() {
    if (session != null) session.close();
  }

  private static List<String> read(String catalog, String table, String asOf) {
    return SparkRows.renderAll(session.sql("SELECT * FROM " + catalog + ".lc." + table + asOf));
  }

  private static void same(String table, String asOf, String step) {
    assertEquals(read("lake", table, asOf), read("paimon", table, asOf), table + asOf + " after " + step);
  }

  private static void insert(String catalog, String table, int from, int to) {
    session.sql("INSERT INTO " + catalog + ".lc." + table + " SELECT CAST(id AS INT), concat('v', id) FROM range(" + from + ", "
        + to + ")");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"pk", "append_dv"})
  void tagsExpiryRollbackAndBranchesAgreeBetweenEngines(String kind) throws Exception {
    String t = kind + "_t";
    session.sql("CREATE TABLE paimon.lc." + t + " (id INT NOT NULL, v STRING) TBLPROPERTIES ("
        + (kind.equals("pk") ? "'primary-key' = 'id', 'bucket' = '2'" : "'deletion-vectors.enabled' = 'true'") + ")");
    insert("paimon", t, 0, 10);
    insert("lake", t, 5, 15);
    insert("paimon", t, 12, 20);
    session.sql("DELETE FROM lake.lc." + t + " WHERE id % 3 = 0");

    session.sql("CALL lake.sys.create_tag(table => 'lc." + t + "', tag => 'l2', snapshot => 2, time_retained => '1 d')").collect();
    session.sql("CALL paimon.sys.create_tag(table => 'lc." + t + "', tag => 'p3', snapshot => 3)").collect();
    assertTrue(Files.readString(warehouse.resolve("lc.db").resolve(t).resolve("tag").resolve("tag-l2")).contains("tagTimeRetained"));
    same(t, " VERSION AS OF 'l2'", "Lagoon's tag");
    same(t, " VERSION AS OF 'p3'", "Paimon's tag");

    List<String> latest = read("lake", t, "");
    session.sql("CALL lake.sys.expire_snapshots(table => 'lc." + t + "', retain_max => 1, older_than => '2999-01-01 00:00:00')")
        .collect();
    assertEquals(latest, read("paimon", t, ""));
    same(t, " VERSION AS OF 'l2'", "Lagoon's expiry");
    same(t, " VERSION AS OF 'p3'", "Lagoon's expiry");

    // A branch from Lagoon's tag, written by Lagoon, read by Paimon.
    session.sql("CALL lake.sys.create_branch(table => 'lc." + t + "', branch => 'fix', tag => 'l2')").collect();
    insert("lake", "`" + t + "$branch_fix`", 100, 103);
    same("`" + t + "$branch_fix`", "", "Lagoon's branch write");

    // Lagoon rolls back to Paimon's tag (its snapshot expired: restored from the tag); Paimon writes on.
    session.sql("CALL lake.sys.rollback(table => 'lc." + t + "', version => 'p3')").collect();
    same(t, "", "Lagoon's rollback");
    assertEquals(read("lake", t, " VERSION AS OF 'p3'"), read("lake", t, ""));
    insert("paimon", t, 30, 33);
    insert("lake", t, 40, 43);
    session.sql("CALL paimon.sys.expire_snapshots(table => 'lc." + t + "', retain_max => 1)").collect();
    same(t, "", "Paimon's expiry");
    same(t, " VERSION AS OF 'l2'", "Paimon's expiry");
    session.sql("CALL paimon.sys.delete_tag(table => 'lc." + t + "', tag => 'p3')").collect();
    session.sql("CALL lake.sys.remove_orphan_files(table => 'lc." + t + "', older_than => '2999-01-01 00:00:00')").collect();
    same(t, "", "orphan removal");
    same(t, " VERSION AS OF 'l2'", "orphan removal");
    same("`" + t + "$branch_fix`", "", "orphan removal");
  }
}
