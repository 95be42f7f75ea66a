package io.lagoon.it.ddl;

import static io.lagoon.it.ddl.WarehouseListing.assertRefusedUnchanged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.lagoon.it.LagoonSparkTest;
import java.nio.file.Files;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every refused statement names what is wrong and leaves the warehouse as it was. */
class DdlBadInputTest extends LagoonSparkTest {

  @BeforeAll
  static void tables() {
    sql("CREATE NAMESPACE lake.bad");
    sql("CREATE TABLE lake.bad.t (id INT, name STRING)");
    sql("INSERT INTO lake.bad.t VALUES (1, 'a')");
  }

  @Test
  void unknownTable() {
    assertRefusedUnchanged(warehouse, () -> sql("SELECT * FROM lake.bad.missing"), "missing");
    assertRefusedUnchanged(warehouse, () -> sql("INSERT INTO lake.bad.missing VALUES (1)"), "missing");
    assertRefusedUnchanged(warehouse, () -> sql("DESCRIBE lake.bad.missing"), "missing");
  }

  @Test
  void unknownNamespace() {
    assertRefusedUnchanged(warehouse, () -> sql("CREATE TABLE lake.nowhere.t (id INT)"), "nowhere");
    assertRefusedUnchanged(warehouse, () -> sql("SELECT * FROM lake.nowhere.t"), "nowhere");
    assertFalse(Files.exists(warehouse.resolve("nowhere.db")));
  }

  @Test
  void tableThatAlreadyExists() {
    assertRefusedUnchanged(warehouse, () -> sql("CREATE TABLE lake.bad.t (x STRING)"), "t", "already exists");
    assertRefusedUnchanged(warehouse, () -> sql("CREATE TABLE lake.bad.t AS SELECT 1 AS x"), "already exists");
  }

  @Test
  void unsupportedTypes() {
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.ym (id INT, i INTERVAL YEAR TO MONTH)"), "interval");
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.dt (id INT, i INTERVAL DAY TO SECOND)"), "interval");
    assertRefusedUnchanged(warehouse, () -> sql("CREATE TABLE lake.bad.vd (id INT, v VOID)"), "v", "void");
    assertRefusedUnchanged(warehouse, () -> sql("CREATE TABLE lake.bad.vd2 AS SELECT 1 AS id, null AS nothing"),
        "nothing", "void");
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.ci AS SELECT 1 AS id, make_interval(1, 2) AS span"), "interval");
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.nested (id INT, s STRUCT<inner: INTERVAL DAY>)"), "interval");
    assertFalse(Files.exists(warehouse.resolve("bad.db/vd2")));
    assertFalse(Files.exists(warehouse.resolve("bad.db/ci")));
  }

  @Test
  void insertWithTheWrongNumberOfColumns() {
    assertRefusedUnchanged(warehouse, () -> sql("INSERT INTO lake.bad.t VALUES (1, 'a', 'extra')"), "t");
    assertRefusedUnchanged(warehouse, () -> sql("INSERT INTO lake.bad.t VALUES (1)"), "t");
  }

  @Test
  void insertWithTheWrongTypes() {
    // Spark's default ANSI store assignment refuses a string in an INT column.
    assertRefusedUnchanged(warehouse, () -> sql("INSERT INTO lake.bad.t VALUES ('not a number', 'a')"), "id");
    assertRefusedUnchanged(warehouse,
        () -> sql("INSERT INTO lake.bad.t SELECT CAST('2024-01-01' AS DATE), 'a'"), "id");
    assertEquals(list("1,a"), rows("SELECT * FROM lake.bad.t"));
  }

  @Test
  void createTableAsSelectWhoseQueryFailsLeavesNoTable() {
    assertRefusedUnchanged(warehouse, () -> sql("CREATE TABLE lake.bad.ctas_fail AS SELECT id, "
        + "IF(id > 1, CAST(raise_error('boom in row') AS STRING), 'ok') AS s FROM range(3)"), "boom in row");
    assertFalse(Files.exists(warehouse.resolve("bad.db/ctas_fail")));
  }

  @Test
  void unknownFileFormatAtCreate() {
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.csv (id INT) TBLPROPERTIES ('file.format' = 'csv')"),
        "bad.csv", "file.format", "csv");
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.csv2 TBLPROPERTIES ('file.format' = 'csv') AS SELECT 1 AS id"),
        "file.format", "csv");
    assertFalse(Files.exists(warehouse.resolve("bad.db/csv")));
    assertFalse(Files.exists(warehouse.resolve("bad.db/csv2")));
  }

  @Test
  void invalidOptionValues() {
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.size (id INT) TBLPROPERTIES ('target-file-size' = 'huge')"),
        "target-file-size", "huge");
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.bk (id INT) TBLPROPERTIES ('bucket' = 'four')"), "bucket", "four");
  }

  @Test
  void primaryKeyTablesWithBadBucketModesAreRefused() {
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.pk (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '-3')"),
        "bad.pk", "positive number of buckets", "-3");
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.pk2 TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '-2', "
            + "'postpone.default-bucket-num' = 'x') AS SELECT 1 AS id"),
        "postpone.default-bucket-num");
  }

  @Test
  void fixedBucketAppendTablesNeedABucketKeyAndAPositiveCount() {
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.bucketed (id INT) TBLPROPERTIES ('bucket' = '4')"),
        "bad.bucketed", "'bucket-key'");
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.bucketkey (id INT) TBLPROPERTIES ('bucket' = '4', 'bucket-key' = 'idd')"),
        "bad.bucketkey", "'idd'");
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.bucket0 (id INT) TBLPROPERTIES ('bucket' = '0')"), "bucket", "0");
  }

  @Test
  void unknownCompressionIsRefused() {
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.codec (id INT) TBLPROPERTIES ('file.compression' = 'zlib')"),
        "bad.codec", "file.compression", "zlib");
  }

  @Test
  void parquetWriterOptionsParquetCannotTakeAreRefused() {
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.pqver (id INT) TBLPROPERTIES ('parquet.writer.version' = 'v9')"),
        "parquet.writer.version", "v9");
    sql("CREATE TABLE IF NOT EXISTS lake.bad.pqalter (id INT)");
    assertRefusedUnchanged(warehouse,
        () -> sql("ALTER TABLE lake.bad.pqalter SET TBLPROPERTIES ('parquet.page.row.count.limit' = 'many')"),
        "parquet.page.row.count.limit", "many");
  }

  @Test
  void partitionColumnThatIsNotAColumn() {
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.part (id INT) PARTITIONED BY (nope)"), "nope");
  }

  @Test
  void partitionTransformsAreRefused() {
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.bkt (id INT, ts TIMESTAMP) PARTITIONED BY (days(ts))"), "days");
  }

  @Test
  void otherProvidersAreRefused() {
    assertRefusedUnchanged(warehouse, () -> sql("CREATE TABLE lake.bad.prov (id INT) USING csv"), "csv");
  }

  @Test
  void tableLocationIsRefused() {
    assertRefusedUnchanged(warehouse,
        () -> sql("CREATE TABLE lake.bad.loc (id INT) LOCATION '" + warehouse.resolveSibling("elsewhere").toUri() + "'"),
        "bad.loc", "location");
  }

  @Test
  void invalidTableNames() {
    assertRefusedUnchanged(warehouse, () -> sql("CREATE TABLE lake.bad.`a/b` (id INT)"), "a/b");
    assertRefusedUnchanged(warehouse, () -> sql("CREATE TABLE lake.bad.`t$x` (id INT)"), "t$x", "system tables");
  }
}
