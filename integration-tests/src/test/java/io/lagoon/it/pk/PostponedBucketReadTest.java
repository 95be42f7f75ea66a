package io.lagoon.it.pk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * Postponed-bucket tables ({@code 'bucket'='-2'}, Paimon 1.1+) written by Paimon 1.3.1: their rows
 * wait in {@code bucket-postpone} until a compaction gives them buckets, and Paimon's readers do
 * not see them until then; Lagoon reads what Paimon reads, and its own batch writes (into fixed
 * buckets, see {@code PostponedBucketWriteTest}) are visible while the postponed rows still wait.
 */
class PostponedBucketReadTest extends LagoonSparkTest {
  @Test
  void rowsInBucketPostponeStayInvisibleAndWritesAreRefused() {
    Schema schema = Schema.newBuilder().column("id", DataTypes.INT().notNull()).column("v", DataTypes.STRING())
        .primaryKey("id").option("bucket", "-2").build();
    Path table = PaimonOracle.createTable(warehouse, "pp", "t", schema);
    List<GenericRow> rows = new ArrayList<>();
    for (int i = 0; i < 50; i++) rows.add(GenericRow.of(i, BinaryString.fromString("v" + i)));
    PaimonOracle.writeRows(table, rows);
    assertTrue(java.nio.file.Files.isDirectory(table.resolve("bucket-postpone")), "Paimon wrote to bucket-postpone");
    List<String> paimon = PaimonOracle.readRows(table);
    assertEquals(paimon, SparkRows.renderAll(sql("SELECT * FROM lake.pp.t")), "Lagoon reads what Paimon reads");
    assertEquals(paimon.size(), sql("SELECT count(*) FROM lake.pp.t").first().getLong(0));
    sql("INSERT INTO lake.pp.t VALUES (1, 'x'), (1000, 'y')");
    assertEquals(List.of("id=1, v=x", "id=1000, v=y"), SparkRows.renderAll(sql("SELECT * FROM lake.pp.t ORDER BY id")));
    assertEquals(SparkRows.renderAll(sql("SELECT * FROM lake.pp.t ORDER BY id")), PaimonOracle.readRows(table),
        "Paimon reads Lagoon's rows and still not the postponed ones");
  }
}
