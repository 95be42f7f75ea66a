package io.lagoon.it.pk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Batch writes into postponed-bucket tables ({@code 'bucket'='-2'}), as Paimon 1.2+ batch jobs
 * write them: straight into fixed buckets, Paimon's hash over the partition's own bucket count
 * (the count its files have, else {@code postpone.default-bucket-num}), visible at once; rows
 * Paimon postponed stay invisible until {@code CALL sys.compact}; row-level SQL works; Paimon
 * 1.3.1 reads every step the same and finds each key in one bucket, the one its hash picks.
 */
@RequiresPaimon131
class PostponedBucketWriteTest extends LagoonSparkTest {
  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE IF NOT EXISTS lake.pw");
  }

  private static Path dir(String t) {
    return warehouse.resolve("pw.db").resolve(t);
  }

  private static List<String> sorted(List<String> rows) {
    List<String> out = new ArrayList<>(rows);
    Collections.sort(out);
    return out;
  }

  private static void assertSameRows(String t) {
    List<String> lagoon = sorted(io.lagoon.it.oracle.SparkRows.renderAll(sql("SELECT * FROM lake.pw." + t)));
    assertEquals(lagoon, sorted(PaimonOracle.readRows(dir(t))), "Paimon reads what Lagoon reads");
  }

  /** Key (first two columns) -> {bucket, bucket count} of every live row, as Paimon's splits place them. */
  private static Map<String, int[]> placement(Path tableDir) {
    return PaimonOracle.bucketPlacement(tableDir, row -> row.getInt(0) + "/" + row.getInt(1));
  }


  /** The bucket Paimon's own write gives each key on a fixed-bucket table of n buckets. */
  private static Map<String, Integer> paimonBuckets(String name, int n, Iterable<String> keys) throws Exception {
    sql("CREATE TABLE lake.pw." + name + " (id INT NOT NULL, p INT NOT NULL, v STRING) PARTITIONED BY (p) "
        + "TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '" + n + "')");
    List<GenericRow> rows = new ArrayList<>();
    for (String k : keys) {
      String[] parts = k.split("/");
      rows.add(GenericRow.of(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), BinaryString.fromString("x")));
    }
    PaimonOracle.writeRows(dir(name), rows);
    Map<String, Integer> out = new HashMap<>();
    for (Map.Entry<String, int[]> e : placement(dir(name)).entrySet()) out.put(e.getKey(), e.getValue()[0]);
    return out;
  }

  @Test
  void batchWritesGoToEachPartitionsFixedBucketsAndAreVisibleAtOnce() throws Exception {
    sql("CREATE TABLE lake.pw.t (id INT NOT NULL, p INT NOT NULL, v STRING) PARTITIONED BY (p) "
        + "TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '-2', 'postpone.default-bucket-num' = '2')");
    sql("INSERT INTO lake.pw.t SELECT CAST(id AS INT), CAST(id % 2 AS INT), concat('a', id) FROM range(0, 60)");
    assertEquals(60L, sql("SELECT count(*) FROM lake.pw.t").first().getLong(0), "visible at once");
    assertSameRows("t");

    // Paimon (as a Flink job would) postpones rows of an existing and a new partition.
    PaimonOracle.writeRows(dir("t"), List.of(GenericRow.of(1, 1, BinaryString.fromString("paimon")),
        GenericRow.of(100, 2, BinaryString.fromString("paimon-new"))));
    assertEquals(60L, sql("SELECT count(*) FROM lake.pw.t").first().getLong(0), "postponed rows wait");
    assertSameRows("t");

    // A later default applies to new partitions only; an existing partition keeps its count.
    sql("ALTER TABLE lake.pw.t SET TBLPROPERTIES ('postpone.default-bucket-num' = '3')");
    sql("INSERT INTO lake.pw.t VALUES (2, 0, 'b2'), (200, 3, 'new-partition')");
    sql("UPDATE lake.pw.t SET v = 'u' WHERE id % 10 = 3");
    sql("DELETE FROM lake.pw.t WHERE id = 4");
    sql("MERGE INTO lake.pw.t t USING (SELECT 5 AS id, 1 AS p, 'm' AS v UNION ALL SELECT 300, 3, 'm-new') s "
        + "ON t.id = s.id AND t.p = s.p WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT *");
    assertSameRows("t");
    List<String> lagoon = sorted(io.lagoon.it.oracle.SparkRows.renderAll(sql("SELECT * FROM lake.pw.t WHERE id IN (2, 3, 4, 5, 200, 300)")));
    assertEquals(List.of("id=2, p=0, v=b2", "id=200, p=3, v=new-partition", "id=3, p=1, v=u", "id=300, p=3, v=m-new",
        "id=5, p=1, v=m"), lagoon);

    sql("CALL lake.sys.compact(table => 'pw.t')");
    assertSameRows("t");
    assertEquals(62L, sql("SELECT count(*) FROM lake.pw.t").first().getLong(0), "postponed rows now visible");
    assertEquals("paimon", sql("SELECT v FROM lake.pw.t WHERE id = 1").first().getString(0));

    Map<String, int[]> placed = placement(dir("t"));
    Map<String, Integer> two = paimonBuckets("two", 2, placed.keySet());
    Map<String, Integer> three = paimonBuckets("three", 3, placed.keySet());
    for (Map.Entry<String, int[]> e : placed.entrySet()) {
      boolean later = e.getKey().endsWith("/2") || e.getKey().endsWith("/3");
      assertEquals(later ? 3 : 2, e.getValue()[1], "bucket count of " + e.getKey());
      assertEquals((later ? three : two).get(e.getKey()), e.getValue()[0], "key " + e.getKey() + " in Paimon's bucket");
    }
  }

  @Test
  void overwriteStartsPartitionsAfreshWithTheDefaultCount() throws Exception {
    sql("CREATE TABLE lake.pw.o (id INT NOT NULL, p INT NOT NULL, v STRING) PARTITIONED BY (p) "
        + "TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '-2')");
    sql("INSERT INTO lake.pw.o SELECT CAST(id AS INT), 0, 'a' FROM range(0, 10)");
    PaimonOracle.writeRows(dir("o"), List.of(GenericRow.of(50, 0, BinaryString.fromString("postponed"))));
    sql("ALTER TABLE lake.pw.o SET TBLPROPERTIES ('postpone.default-bucket-num' = '4')");
    sql("INSERT OVERWRITE lake.pw.o PARTITION (p = 0) SELECT CAST(id AS INT), 'b' FROM range(100, 120)");
    assertSameRows("o");
    assertEquals(20L, sql("SELECT count(*) FROM lake.pw.o").first().getLong(0));
    for (int[] b : placement(dir("o")).values()) assertEquals(4, b[1]);
    sql("CALL lake.sys.compact(table => 'pw.o')");
    assertEquals(20L, sql("SELECT count(*) FROM lake.pw.o").first().getLong(0), "the overwrite replaced the postponed row too");
    assertSameRows("o");
  }

  @Test
  void unpartitionedTablesWriteOneTaskPerBucket() {
    sql("CREATE TABLE lake.pw.u (id BIGINT NOT NULL, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '-2', "
        + "'postpone.default-bucket-num' = '3')");
    sql("INSERT INTO lake.pw.u SELECT id, 'a' FROM range(0, 300)");
    sql("INSERT INTO lake.pw.u SELECT id, 'b' FROM range(100, 200)");
    assertEquals(300L, sql("SELECT count(*) FROM lake.pw.u").first().getLong(0));
    assertEquals(100L, sql("SELECT count(*) FROM lake.pw.u WHERE v = 'b'").first().getLong(0));
    List<String> lagoon = sorted(io.lagoon.it.oracle.SparkRows.renderAll(sql("SELECT * FROM lake.pw.u")));
    assertEquals(lagoon, sorted(PaimonOracle.readRows(dir("u"))));
    // Each write put one file in each of the 3 buckets: every bucket was written by one task.
    Map<Integer, Integer> files = new HashMap<>();
    for (Split s : PaimonOracle.openTable(dir("u")).newReadBuilder().newScan().plan().splits()) {
      DataSplit d = (DataSplit) s;
      assertEquals(3, d.totalBuckets());
      files.merge(d.bucket(), d.dataFiles().size(), Integer::sum);
    }
    assertEquals(Map.of(0, 2, 1, 2, 2, 2), files);
  }
}
