package io.lagoon.it.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** INSERT INTO / OVERWRITE (static, dynamic), TRUNCATE, DataFrame writes, file rolling. */
class WriteModesTest extends LagoonSparkTest {

  @BeforeAll
  static void ns() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.w");
  }

  @Test
  void staticPartitionOverwriteReplacesOnlyThatPartition() {
    sql("CREATE TABLE lake.w.st (id INT, v STRING, p STRING) PARTITIONED BY (p)");
    sql("INSERT INTO lake.w.st VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, 'c', 'z')");
    sql("INSERT OVERWRITE lake.w.st PARTITION (p = 'x') VALUES (10, 'aa')");
    assertEquals(list("10,aa,x", "2,b,y", "3,c,z"), rows("SELECT * FROM lake.w.st"));
    // overwrite without a partition spec in static mode replaces the whole table
    sql("INSERT OVERWRITE lake.w.st VALUES (7, 'q', 'y')");
    assertEquals(list("7,q,y"), rows("SELECT * FROM lake.w.st"));
  }

  @Test
  void dynamicPartitionOverwriteReplacesOnlyWrittenPartitions() {
    sql("CREATE TABLE lake.w.dyn (id INT, p STRING) PARTITIONED BY (p)");
    sql("INSERT INTO lake.w.dyn VALUES (1, 'x'), (2, 'y'), (3, 'z')");
    spark.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
    try {
      sql("INSERT OVERWRITE lake.w.dyn VALUES (11, 'x'), (12, 'x'), (22, 'y')");
    } finally {
      spark.conf().unset("spark.sql.sources.partitionOverwriteMode");
    }
    assertEquals(list("11,x", "12,x", "22,y", "3,z"), rows("SELECT * FROM lake.w.dyn"));
  }

  @Test
  void truncateEmptiesTheTableAndKeepsIt() {
    sql("CREATE TABLE lake.w.tr (id INT) ");
    sql("INSERT INTO lake.w.tr VALUES (1), (2)");
    sql("TRUNCATE TABLE lake.w.tr");
    assertEquals(list(), rows("SELECT * FROM lake.w.tr"));
    sql("INSERT INTO lake.w.tr VALUES (3)");
    assertEquals(list("3"), rows("SELECT * FROM lake.w.tr"));
  }

  @Test
  void dataFrameAppendAndOverwritePartitions() throws Exception {
    sql("CREATE TABLE lake.w.df (id BIGINT, p INT) PARTITIONED BY (p)");
    Dataset<Row> first = spark.range(0, 10).selectExpr("id", "CAST(id % 2 AS INT) AS p");
    first.writeTo("lake.w.df").append();
    assertEquals(list("10"), rows("SELECT count(*) FROM lake.w.df"));
    Dataset<Row> second = spark.range(100, 103).selectExpr("id", "1 AS p");
    second.writeTo("lake.w.df").overwritePartitions();
    assertEquals(list("0,5", "1,3"), rows("SELECT p, count(*) FROM lake.w.df GROUP BY p"));
    assertEquals(list("100", "101", "102"), rows("SELECT id FROM lake.w.df WHERE p = 1"));
  }

  @Test
  void ctasCreatesAndFillsATable() {
    sql("CREATE TABLE lake.w.ctas PARTITIONED BY (p) AS SELECT id, CAST(id % 3 AS INT) AS p FROM range(9)");
    assertEquals(list("0,3", "1,3", "2,3"), rows("SELECT p, count(*) FROM lake.w.ctas GROUP BY p"));
  }

  @Test
  void targetFileSizeRollsLargeInsertsIntoSeveralFiles() throws Exception {
    sql("CREATE TABLE lake.w.roll (id BIGINT, s STRING) TBLPROPERTIES ('target-file-size'='256 kb')");
    spark.range(0, 300_000, 1, 1).selectExpr("id", "uuid() AS s").writeTo("lake.w.roll").append();
    long files = countDataFiles(warehouse.resolve("w.db/roll"), ".parquet");
    assertTrue(files >= 4, "expected several files, got " + files);
    assertEquals(list("300000,44999850000"), rows("SELECT count(*), sum(id) FROM lake.w.roll"));
  }

  @Test
  void orcTablesWriteOrcFiles() throws IOException {
    sql("CREATE TABLE lake.w.orc (id INT, s STRING, p STRING) PARTITIONED BY (p) TBLPROPERTIES ('file.format'='orc')");
    sql("INSERT INTO lake.w.orc VALUES (1, 'a', 'x'), (2, null, 'y')");
    assertEquals(2, countDataFiles(warehouse.resolve("w.db/orc"), ".orc"));
    assertEquals(list("1,a,x", "2,null,y"), rows("SELECT * FROM lake.w.orc"));
    assertEquals(list("2"), rows("SELECT id FROM lake.w.orc WHERE s IS NULL"));
  }

  @Test
  void nullAndEmptyPartitionValuesGoToTheDefaultPartition() throws IOException {
    sql("CREATE TABLE lake.w.np (id INT, p STRING) PARTITIONED BY (p)");
    sql("INSERT INTO lake.w.np VALUES (1, null), (2, 'a/b=c')");
    assertTrue(Files.isDirectory(warehouse.resolve("w.db/np/p=__DEFAULT_PARTITION__/bucket-0")));
    assertTrue(Files.isDirectory(warehouse.resolve("w.db/np/p=a%2Fb%3Dc/bucket-0")));
    assertEquals(list("1,null", "2,a/b=c"), rows("SELECT * FROM lake.w.np"));
    assertEquals(list("1"), rows("SELECT id FROM lake.w.np WHERE p IS NULL"));
    assertEquals(list("2"), rows("SELECT id FROM lake.w.np WHERE p = 'a/b=c'"));
  }

  static long countDataFiles(Path table, String suffix) throws IOException {
    try (Stream<Path> s = Files.walk(table)) {
      return s.filter(p -> p.getFileName().toString().startsWith("data-") && p.toString().endsWith(suffix)).count();
    }
  }
}
