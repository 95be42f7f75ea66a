package io.lagoon.it.evolution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * After {@code ALTER TABLE ADD COLUMN}, jobs written for the old columns keep working when they
 * name their columns: {@code INSERT INTO t (a, b) ...} writes NULL into the columns it leaves out
 * (with Lagoon's SQL extensions), in any order of the list, into append and primary-key tables and
 * into a partition given by PARTITION. A NOT NULL column left out is refused by name and nothing
 * is written. Paimon 1.3.1 reads the same rows.
 */
@RequiresPaimon131
class InsertColumnListTest extends LagoonSparkTest {

  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE lake.icl");
  }

  @Test
  void columnsLeftOutOfTheListAreNull() {
    sql("CREATE TABLE lake.icl.pk (k BIGINT NOT NULL, v STRING) TBLPROPERTIES ('primary-key'='k', 'bucket'='2')");
    sql("INSERT INTO lake.icl.pk VALUES (1, 'a')");
    sql("ALTER TABLE lake.icl.pk ADD COLUMN extra INT");
    sql("ALTER TABLE lake.icl.pk ADD COLUMN first_seen DATE FIRST");
    sql("INSERT INTO lake.icl.pk (k, v) VALUES (2, 'b')");
    sql("INSERT INTO lake.icl.pk (v, k) SELECT 'c', 3");
    sql("INSERT INTO lake.icl.pk (extra, k) VALUES (40, 4)");
    assertEquals(List.of("null,1,a,null", "null,2,b,null", "null,3,c,null", "null,4,null,40"),
        rows("SELECT * FROM lake.icl.pk ORDER BY k"));
    Path dir = warehouse.resolve("icl.db").resolve("pk");
    assertEquals(PaimonOracle.readRows(dir), SparkRows.renderAll(spark.table("lake.icl.pk")));

    long snapshots = rows("SELECT * FROM lake.icl.`pk$snapshots`").size();
    Exception e = assertThrows(Exception.class, () -> sql("INSERT INTO lake.icl.pk (v) VALUES ('x')"));
    assertTrue(e.getMessage().contains("`k`"), e.getMessage());
    assertEquals(snapshots, rows("SELECT * FROM lake.icl.`pk$snapshots`").size(), "nothing written");
  }

  @Test
  void aPartitionAndAnOverwriteTakeTheListToo() {
    sql("CREATE TABLE lake.icl.events (id INT, v STRING, day STRING) PARTITIONED BY (day)");
    sql("INSERT INTO lake.icl.events VALUES (1, 'a', 'd1'), (2, 'b', 'd2')");
    sql("ALTER TABLE lake.icl.events ADD COLUMN score DOUBLE");
    sql("INSERT INTO lake.icl.events PARTITION (day = 'd1') (id) VALUES (3)");
    sql("INSERT INTO lake.icl.events (day, id, score) VALUES ('d3', 4, 0.5)");
    sql("INSERT OVERWRITE lake.icl.events PARTITION (day = 'd2') (v, id) VALUES ('z', 5)");
    assertEquals(List.of("1,a,d1,null", "3,null,d1,null", "4,null,d3,0.5", "5,z,d2,null"),
        rows("SELECT * FROM lake.icl.events ORDER BY id"));
    assertEquals(PaimonOracle.readRows(warehouse.resolve("icl.db").resolve("events")),
        SparkRows.renderAll(spark.table("lake.icl.events")));
  }
}
