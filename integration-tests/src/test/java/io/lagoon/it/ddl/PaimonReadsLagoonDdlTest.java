package io.lagoon.it.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;

/** Tables made by Lagoon's DDL open in real Paimon 1.3.1 with the same schema, and the other way round. */
@RequiresPaimon131
class PaimonReadsLagoonDdlTest extends LagoonSparkTest {

  @Test
  void paimonSeesTheSchemaLagoonWrote() throws Exception {
    sql("CREATE NAMESPACE lake.interop");
    sql("CREATE TABLE lake.interop.t (id BIGINT NOT NULL COMMENT 'key', c CHAR(5), v VARCHAR(10),"
        + " amount DECIMAL(10, 2), ts TIMESTAMP, dt STRING) PARTITIONED BY (dt)"
        + " COMMENT 'from lagoon' TBLPROPERTIES ('file.format' = 'orc')");
    sql("INSERT INTO lake.interop.t VALUES (1, 'ab', 'xyz', 1.25, TIMESTAMP '2024-01-01 00:00:00', 'p')");
    sql("ALTER TABLE lake.interop.t SET TBLPROPERTIES ('my.key' = 'v')");
    Path dir = warehouse.resolve("interop.db/t");

    FileStoreTable t = PaimonOracle.openTable(dir);
    TableSchema s = t.schema();
    assertEquals(1, s.id());
    assertEquals("[id BIGINT NOT NULL 'key', c CHAR(5), v VARCHAR(10), amount DECIMAL(10, 2), "
        + "ts TIMESTAMP(6) WITH LOCAL TIME ZONE, dt STRING]", t.rowType().getFields().stream()
        .map(f -> f.name() + " " + f.type() + (f.description() == null ? "" : " '" + f.description() + "'"))
        .collect(java.util.stream.Collectors.toList()).toString());
    assertEquals(List.of("dt"), s.partitionKeys());
    assertEquals(List.of(), s.primaryKeys());
    assertEquals("from lagoon", s.comment());
    Map<String, String> options = new java.util.HashMap<>(s.options());
    options.remove("path"); // Paimon adds the folder it opened
    assertEquals(Map.of("file.format", "orc", "my.key", "v"), options);
    assertEquals(1, PaimonOracle.readRows(dir).size());

    try (Catalog catalog = PaimonOracle.catalog(warehouse)) {
      assertEquals(List.of("t"), catalog.listTables("interop"));
    }
  }

  @Test
  void lagoonListsAndDescribesWhatPaimonCreated() throws Exception {
    Path other = java.nio.file.Files.createTempDirectory("lagoon-paimon-made");
    PaimonOracle.createTable(other, "pdb", "pt", org.apache.paimon.schema.Schema.newBuilder()
        .column("id", org.apache.paimon.types.DataTypes.INT(), "the id")
        .column("dt", org.apache.paimon.types.DataTypes.STRING())
        .partitionKeys("dt").comment("made by paimon").option("file.format", "parquet").build());
    spark.conf().set("spark.sql.catalog.pmade", "io.lagoon.spark.LagoonCatalog");
    spark.conf().set("spark.sql.catalog.pmade.warehouse", other.toUri().toString());
    assertEquals(list("pdb"), rows("SHOW NAMESPACES IN pmade"));
    assertEquals(list("pdb,pt,false"), rows("SHOW TABLES IN pmade.pdb"));
    List<String> d = rows("DESCRIBE TABLE EXTENDED pmade.pdb.pt");
    assertEquals(true, d.contains("id,int,the id"), d.toString());
    assertEquals(true, d.contains("Comment,made by paimon,"), d.toString());
    assertEquals(true, d.contains("# Partition Information,,"), d.toString());
    try (Catalog catalog = PaimonOracle.catalog(other)) {
      assertEquals("made by paimon", catalog.getTable(Identifier.create("pdb", "pt")).comment().orElse(null));
    }
  }
}
