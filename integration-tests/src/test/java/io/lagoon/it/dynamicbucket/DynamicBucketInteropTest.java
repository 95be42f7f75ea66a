package io.lagoon.it.dynamicbucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lagoon and Paimon 1.3.1 writing the same dynamic-bucket tables, each with its own bucket
 * assigner (Paimon's is {@code HashBucketAssigner}, loading the HASH index Lagoon wrote): a key
 * keeps the bucket whichever writer first gave it one, no key is ever live twice, and both
 * engines read the same rows after every commit.
 */
class DynamicBucketInteropTest extends LagoonSparkTest {
  private static final List<PaimonType> KEY = List.of(PaimonType.of(TypeRoot.INT));

  @BeforeAll
  static void ns() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.dynx");
  }

  private static Schema schema(int targetRows) {
    return Schema.newBuilder().column("id", DataTypes.INT().notNull()).column("p", DataTypes.STRING().notNull())
        .column("v", DataTypes.STRING()).partitionKeys("p").primaryKey("id", "p")
        .option("bucket", "-1").option("dynamic-bucket.target-row-num", Integer.toString(targetRows)).build();
  }

  private static GenericRow row(RowKind kind, int id, String p, String v) {
    GenericRow r = GenericRow.of(id, BinaryString.fromString(p), v == null ? null : BinaryString.fromString(v));
    r.setRowKind(kind);
    return r;
  }

  private static void check(String table, Path dir, Map<String, String> model) {
    List<String> expected = new ArrayList<>();
    for (Map.Entry<String, String> e : model.entrySet()) expected.add(e.getKey() + "," + e.getValue());
    expected.sort(String::compareTo);
    assertEquals(expected, rows("SELECT id, p, v FROM lake.dynx." + table), "Lagoon reads the model's rows");
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM lake.dynx." + table)), PaimonOracle.readRows(dir),
        "Paimon 1.3.1 reads what Lagoon reads");
    // The partition is in the key; the index is per partition and hashes the key without it.
    BucketIndexCheck.assertKeysInTheirIndexedBucket(spark, "lake.dynx." + table, dir, List.of("id"),
        List.of(KEY.get(0)));
  }

  @Test
  void eachEngineKeepsTheBucketsTheOtherGave() {
    Path dir = PaimonOracle.createTable(warehouse, "dynx", "shared", schema(40));
    Map<String, String> model = new TreeMap<>();
    List<GenericRow> first = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      String p = i % 2 == 0 ? "a" : "b";
      first.add(row(RowKind.INSERT, i, p, "paimon" + i));
      model.put(i + "," + p, "paimon" + i);
    }
    PaimonOracle.writeRowsAsPaimonAssigns(dir, first);
    check("shared", dir, model);
    sql("INSERT INTO lake.dynx.shared SELECT CAST(id AS INT), IF(id % 2 = 0, 'a', 'b'), CONCAT('lagoon', id) "
        + "FROM range(100, 300)");
    for (int i = 100; i < 300; i++) model.put(i + "," + (i % 2 == 0 ? "a" : "b"), "lagoon" + i);
    check("shared", dir, model);
    List<GenericRow> again = new ArrayList<>();
    for (int i = 250; i < 350; i++) {
      String p = i % 2 == 0 ? "a" : "b";
      again.add(row(RowKind.INSERT, i, p, "again" + i));
      model.put(i + "," + p, "again" + i);
    }
    PaimonOracle.writeRowsAsPaimonAssigns(dir, again);
    check("shared", dir, model);
  }

  /**
   * A model of the table against alternating writers over many commits: random upserts and
   * deletes, Paimon's through its assigner and Lagoon's through SQL; after each commit the rows
   * are the model's and no key has records in two buckets or is indexed in two.
   */
  @Test
  void alternatingWritersOverManyCommitsNeverLiveAKeyTwice() {
    Path dir = PaimonOracle.createTable(warehouse, "dynx", "model", schema(25));
    Map<String, String> model = new TreeMap<>();
    Random random = new Random(42);
    for (int round = 0; round < 12; round++) {
      boolean paimon = round % 2 == 0;
      List<GenericRow> batch = new ArrayList<>();
      StringBuilder values = new StringBuilder();
      List<String> deletes = new ArrayList<>();
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (int n = 0; n < 60; n++) {
        int id = random.nextInt(150);
        String p = random.nextInt(3) == 0 ? "a" : "b";
        String key = id + "," + p;
        if (!seen.add(key)) continue;
        if (random.nextInt(5) == 0) {
          model.remove(key);
          if (paimon) batch.add(row(RowKind.DELETE, id, p, null));
          else deletes.add("(id = " + id + " AND p = '" + p + "')");
        } else {
          String v = (paimon ? "p" : "l") + round + "_" + n;
          model.put(key, v);
          if (paimon) batch.add(row(RowKind.INSERT, id, p, v));
          else values.append(values.length() == 0 ? "" : ", ").append("(").append(id).append(", '").append(p)
              .append("', '").append(v).append("')");
        }
      }
      if (paimon) {
        PaimonOracle.writeRowsAsPaimonAssigns(dir, batch);
      } else {
        if (values.length() > 0) sql("INSERT INTO lake.dynx.model VALUES " + values);
        if (!deletes.isEmpty()) sql("DELETE FROM lake.dynx.model WHERE " + String.join(" OR ", deletes));
      }
      check("model", dir, model);
    }
    assertTrue(model.size() > 100, "the model grew: " + model.size());
  }
}
