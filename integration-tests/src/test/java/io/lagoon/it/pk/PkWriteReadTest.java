package io.lagoon.it.pk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.data.BucketFunction;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Writes into primary-key tables read back through SQL (and by Paimon itself): upserts keep the
 * latest row per key, overwrites replace partitions, and each key's files sit in the bucket
 * Paimon computes for it.
 */
class PkWriteReadTest extends LagoonSparkTest {

  @BeforeAll
  static void namespace() {
    sql("CREATE NAMESPACE lake.pkrw");
  }

  @Test
  void upsertsKeepTheLatestRowPerKey() throws Exception {
    sql("CREATE TABLE lake.pkrw.kv (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')");
    sql("INSERT INTO lake.pkrw.kv VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    sql("INSERT INTO lake.pkrw.kv VALUES (1, 'a2'), (4, 'd')");
    spark.sql("SELECT 2 AS id, 'b2' AS v").writeTo("lake.pkrw.kv").append();
    assertEquals(list("1,a2", "2,b2", "3,c", "4,d"), rows("SELECT * FROM lake.pkrw.kv"));
  }

  @Test
  void filesLandInTheBucketPaimonComputes() throws Exception {
    sql("CREATE TABLE lake.pkrw.placed (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '4')");
    List<PaimonType> types = List.of(PaimonType.of(TypeRoot.INT).notNull());
    List<Integer> keys = new ArrayList<>();
    TreeSet<Integer> buckets = new TreeSet<>();
    for (int id = 0; keys.size() < 20; id++) {
      int b = BucketFunction.bucket(new GenericInternalRow(new Object[] {id}), types, 4);
      if (b == 0 || b == 2) {
        keys.add(id);
        buckets.add(b);
      }
    }
    StringBuilder values = new StringBuilder();
    for (int k : keys) values.append(values.length() == 0 ? "" : ", ").append("(").append(k).append(", 'x')");
    sql("INSERT INTO lake.pkrw.placed VALUES " + values);
    Path table = warehouse.resolve("pkrw.db/placed");
    for (int b = 0; b < 4; b++) {
      boolean expected = buckets.contains(b);
      assertEquals(expected, Files.isDirectory(table.resolve("bucket-" + b)) && hasFiles(table.resolve("bucket-" + b)),
          "bucket-" + b + (expected ? " holds keys" : " holds none"));
    }
    assertEquals(keys.size(), sql("SELECT * FROM lake.pkrw.placed").count());
  }

  @Test
  void staticAndDynamicOverwriteReplacePartitions() {
    sql("CREATE TABLE lake.pkrw.parts (id INT, dt STRING, v INT) PARTITIONED BY (dt) "
        + "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '2')");
    sql("INSERT INTO lake.pkrw.parts VALUES (1, 'a', 1), (2, 'a', 2), (1, 'b', 3), (1, 'c', 4)");
    sql("INSERT OVERWRITE lake.pkrw.parts PARTITION (dt = 'a') VALUES (9, 90)");
    assertEquals(list("1,b,3", "1,c,4", "9,a,90"), rows("SELECT * FROM lake.pkrw.parts"));
    spark.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
    try {
      sql("INSERT OVERWRITE lake.pkrw.parts VALUES (5, 'b', 50)");
    } finally {
      spark.conf().unset("spark.sql.sources.partitionOverwriteMode");
    }
    assertEquals(list("1,c,4", "5,b,50", "9,a,90"), rows("SELECT * FROM lake.pkrw.parts"));
    sql("INSERT OVERWRITE lake.pkrw.parts SELECT 7, 'z', 70");
    assertEquals(list("7,z,70"), rows("SELECT * FROM lake.pkrw.parts"));
  }

  @Test
  void mergeEnginesApplyAcrossWrites() {
    sql("CREATE TABLE lake.pkrw.sums (k STRING, total BIGINT, top INT) TBLPROPERTIES ('primary-key' = 'k', "
        + "'bucket' = '2', 'merge-engine' = 'aggregation', 'fields.total.aggregate-function' = 'sum', "
        + "'fields.top.aggregate-function' = 'max')");
    sql("INSERT INTO lake.pkrw.sums VALUES ('a', 1, 5), ('b', 10, 1)");
    sql("INSERT INTO lake.pkrw.sums VALUES ('a', 2, 3), ('a', 4, 9)");
    assertEquals(list("a,7,9", "b,10,1"), rows("SELECT * FROM lake.pkrw.sums"));
  }

  @Test
  @RequiresPaimon131
  void paimonReadsWhatLagoonWrote() {
    sql("CREATE TABLE lake.pkrw.shared (id INT, v BIGINT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '3')");
    sql("INSERT INTO lake.pkrw.shared SELECT CAST(id AS INT), id * 10 FROM range(6)");
    sql("INSERT INTO lake.pkrw.shared VALUES (0, -1), (5, -5)");
    assertEquals(List.of("id=0, v=-1", "id=1, v=10", "id=2, v=20", "id=3, v=30", "id=4, v=40", "id=5, v=-5"),
        PaimonOracle.readRows(warehouse.resolve("pkrw.db/shared")));
    assertTrue(PaimonOracle.latestSnapshotId(warehouse.resolve("pkrw.db/shared")).orElseThrow() >= 2);
  }

  private static boolean hasFiles(Path dir) throws java.io.IOException {
    try (var s = Files.list(dir)) {
      return s.anyMatch(p -> p.getFileName().toString().startsWith("data-"));
    }
  }
}
