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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Branches: {@code create_branch} (empty or at a tag), reads and writes of {@code t$branch_<name>}
 * that leave the table alone, {@code fast_forward}, {@code delete_branch}; files a branch uses
 * survive the table's expiry; Paimon 1.3.1 reads Lagoon's branches and Lagoon Paimon's.
 */
@RequiresPaimon131
class BranchTest extends LagoonSparkTest {
  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.br");
  }

  private static Path dir(String t) {
    return warehouse.resolve("br.db").resolve(t);
  }

  private static String call(String procedure, String args) {
    return String.join("|", rows("CALL lake.sys." + procedure + "(" + args + ")"));
  }

  private static String table(String name, String props) {
    sql("CREATE TABLE lake.br." + name + " (id INT NOT NULL, v STRING) " + props);
    sql("INSERT INTO lake.br." + name + " VALUES (1, 'a'), (2, 'b')");
    sql("INSERT INTO lake.br." + name + " VALUES (3, 'c')");
    return "lake.br." + name;
  }

  @Test
  void aBranchFromATagIsWrittenApartAndFastForwardedIntoTheTable() throws Exception {
    String t = table("pk", "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')");
    call("create_tag", "table => 'br.pk', tag => 'first', snapshot => 1");
    assertEquals("true", call("create_branch", "table => 'br.pk', branch => 'dev', tag => 'first'"));
    String b = "lake.br.`pk$branch_dev`";
    assertEquals(List.of("1,a", "2,b"), rows("SELECT * FROM " + b));
    sql("INSERT INTO " + b + " VALUES (4, 'd'), (1, 'A')");
    sql("DELETE FROM " + b + " WHERE id = 2");
    sql("MERGE INTO " + b + " x USING (SELECT 5 AS id, 'e' AS v) s ON x.id = s.id WHEN NOT MATCHED THEN INSERT *");
    sql("UPDATE " + b + " SET v = 'D' WHERE id = 4");
    List<String> branchRows = List.of("1,A", "4,D", "5,e");
    assertEquals(branchRows, rows("SELECT * FROM " + b));
    assertEquals(List.of("1,a", "2,b", "3,c"), rows("SELECT * FROM " + t), "the table is untouched");
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM " + b)), PaimonOracle.readBranchRows(dir("pk"), "dev"));
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM " + t)), PaimonOracle.readRows(dir("pk")));
    // Branch tags and time travel work on the branch.
    call("create_tag", "table => 'br.`pk$branch_dev`', tag => 'devtag'");
    assertEquals(branchRows, rows("SELECT * FROM " + b + " VERSION AS OF 'devtag'"));

    // The table's expiry keeps every file the branch uses.
    sql("INSERT INTO " + t + " VALUES (6, 'f')");
    call("delete_tag", "table => 'br.pk', tag => 'first'");
    call("expire_snapshots", "table => 'br.pk', retain_max => 1, older_than => '2999-01-01 00:00:00'");
    assertEquals(branchRows, rows("SELECT * FROM " + b));
    assertEquals(List.of("1,a", "2,b", "3,c", "6,f"), rows("SELECT * FROM " + t));

    assertEquals("true", call("fast_forward", "table => 'br.pk', branch => 'dev'"));
    assertEquals(branchRows, rows("SELECT * FROM " + t));
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM " + t)), PaimonOracle.readRows(dir("pk")));
    sql("INSERT INTO " + t + " VALUES (7, 'g')");
    assertEquals(List.of("1,A", "4,D", "5,e", "7,g"), rows("SELECT * FROM " + t));

    assertEquals("true", call("delete_branch", "table => 'br.pk', branch => 'dev'"));
    assertFalse(Files.exists(dir("pk").resolve("branch").resolve("branch-dev")));
    assertEquals(List.of("1,A", "4,D", "5,e", "7,g"), rows("SELECT * FROM " + t));
    assertEquals("", call("remove_orphan_files", "table => 'br.pk', older_than => '2999-01-01 00:00:00', dry_run => true"));
  }

  @Test
  void anEmptyBranchHasTheTablesColumnsAndDeletingItTakesItsFiles() throws Exception {
    String t = table("ap", "");
    call("create_branch", "'br.ap', 'empty'");
    String b = "lake.br.`ap$branch_empty`";
    assertEquals(List.of(), rows("SELECT * FROM " + b));
    assertEquals(List.of("id", "v"), List.of(sql("SELECT * FROM " + b).columns()));
    sql("INSERT INTO " + b + " VALUES (10, 'x')");
    assertEquals(List.of("10,x"), rows("SELECT * FROM " + b));
    assertEquals(List.of("1,a", "2,b", "3,c"), rows("SELECT * FROM " + t));
    long filesBefore;
    try (var s = Files.walk(dir("ap"))) {
      filesBefore = s.filter(p -> p.toString().contains("bucket-")).count();
    }
    call("delete_branch", "table => 'br.ap', branch => 'empty'");
    try (var s = Files.walk(dir("ap"))) {
      assertEquals(filesBefore - 1, s.filter(p -> p.toString().contains("bucket-")).count(), "the branch's data file goes");
    }
    assertEquals(List.of("1,a", "2,b", "3,c"), rows("SELECT * FROM " + t));
  }

  @Test
  void badBranchCallsAreRefused() {
    table("bad", "");
    call("create_branch", "table => 'br.bad', branch => 'b1'");
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("CALL lake.sys.create_branch(table => 'br.bad', branch => 'b1')").collect(), "Branch 'b1'", "already exists");
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("CALL lake.sys.create_branch(table => 'br.bad', branch => 'main')").collect(), "'main'");
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("CALL lake.sys.create_branch(table => 'br.bad', branch => '123')").collect(), "numeric");
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("CALL lake.sys.create_branch(table => 'br.bad', branch => 'x', tag => 'nope')").collect(), "Tag 'nope'");
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("CALL lake.sys.delete_branch(table => 'br.bad', branch => 'b1,b2')").collect(), "Branch 'b2'", "[b1]");
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("CALL lake.sys.fast_forward(table => 'br.bad', branch => 'b1')").collect(), "has no snapshot");
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("DROP TABLE lake.br.`bad$branch_b1`").collect(), "delete_branch");
    WarehouseListing.assertRefusedUnchanged(warehouse,
        () -> sql("SELECT * FROM lake.br.`bad$branch_nope`").collect(), "bad$branch_nope", "cannot be found");
  }

  @Test
  void paimonsBranchesReadAndWriteInLagoon() throws Exception {
    String t = table("pb", "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    org.apache.paimon.table.FileStoreTable paimon = PaimonOracle.openTable(dir("pb"));
    paimon.createTag("t2", 2);
    paimon.createBranch("pbranch", "t2");
    String b = "lake.br.`pb$branch_pbranch`";
    assertEquals(List.of("1,a", "2,b", "3,c"), rows("SELECT * FROM " + b));
    sql("INSERT INTO " + b + " VALUES (3, 'C')");
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM " + b)), PaimonOracle.readBranchRows(dir("pb"), "pbranch"));
    PaimonOracle.openTable(dir("pb")).fastForward("pbranch");
    assertEquals(List.of("1,a", "2,b", "3,C"), rows("SELECT * FROM " + t));
    assertTrue(PaimonOracle.openTable(dir("pb")).branchManager().branches().contains("pbranch"));
  }
}
