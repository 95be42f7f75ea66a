package io.lagoon.it.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A DELETE whose condition selects whole partitions drops them in metadata: its plan reads no
 * data (no scan), and it commits one OVERWRITE that removes the partitions' files and vectors. A
 * condition that also tests other columns reads rows.
 */
class DeletePartitionsTest extends LagoonSparkTest {
  private static String plan(String statement) {
    return sql("EXPLAIN " + statement).collectAsList().get(0).getString(0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "TBLPROPERTIES ('deletion-vectors.enabled' = 'true')",
      "TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '2')",
      "TBLPROPERTIES ('primary-key' = 'id,p', 'bucket' = '2', 'deletion-vectors.enabled' = 'true')"})
  void wholePartitionsAreDroppedWithoutReadingData(String properties) throws java.io.IOException {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.dp");
    sql("DROP TABLE IF EXISTS lake.dp.t");
    sql("CREATE TABLE lake.dp.t (id INT NOT NULL, v STRING, p STRING) PARTITIONED BY (p) " + properties);
    sql("INSERT INTO lake.dp.t VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, 'c', 'z'), (4, 'd', 'z')");
    String metadataOnly = plan("DELETE FROM lake.dp.t WHERE p IN ('y', 'z')");
    assertTrue(metadataOnly.contains("DeleteFromTable") && !metadataOnly.contains("BatchScan"), metadataOnly);
    String rowLevel = plan("DELETE FROM lake.dp.t WHERE p = 'z' AND v = 'c'");
    assertTrue(rowLevel.contains("BatchScan"), rowLevel);

    sql("DELETE FROM lake.dp.t WHERE p IN ('y', 'z')");
    assertEquals(list("1,a,x"), rows("SELECT * FROM lake.dp.t"));
    io.lagoon.core.table.FileStoreTable t = io.lagoon.core.table.FileStoreTable.load(
        new io.lagoon.core.fs.FileIO(spark.sparkContext().hadoopConfiguration()),
        new org.apache.hadoop.fs.Path(warehouse.resolve("dp.db/t").toUri().toString()), "dp.t");
    assertEquals(io.lagoon.core.snapshot.CommitKind.OVERWRITE, t.snapshots().latest().orElseThrow().commitKind);
    long id = t.snapshots().latestId().orElseThrow();
    sql("DELETE FROM lake.dp.t WHERE p = 'gone'");
    assertEquals(id, (long) t.snapshots().latestId().orElseThrow(), "no partition matched: nothing committed");
  }
}
