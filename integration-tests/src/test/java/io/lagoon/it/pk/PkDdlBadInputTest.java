package io.lagoon.it.pk;

import static io.lagoon.it.ddl.WarehouseListing.assertRefusedUnchanged;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.lagoon.it.LagoonSparkTest;
import java.nio.file.Files;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every refused primary-key CREATE names the table and the problem, and creates nothing. */
class PkDdlBadInputTest extends LagoonSparkTest {

  @BeforeAll
  static void namespace() {
    sql("CREATE NAMESPACE lake.pkbad");
  }

  private static void refused(String name, String columnsAndRest, String... expected) {
    String[] all = new String[expected.length + 1];
    all[0] = "pkbad." + name;
    System.arraycopy(expected, 0, all, 1, expected.length);
    assertRefusedUnchanged(warehouse, () -> sql("CREATE TABLE lake.pkbad." + name + " " + columnsAndRest), all);
    assertFalse(Files.exists(warehouse.resolve("pkbad.db/" + name)), name + " must not exist");
  }

  @Test
  void bucketMustBeFixedOrDynamic() {
    refused("dynkey", "(id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket-key' = 'id')",
        "'bucket-key' needs a fixed number of buckets");
    refused("dyntarget", "(id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', "
        + "'dynamic-bucket.target-row-num' = 'lots')", "'dynamic-bucket.target-row-num'", "lots");
    refused("dynmax", "(id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'dynamic-bucket.max-buckets' = '0')",
        "'dynamic-bucket.max-buckets'", "-1 or positive");
    refused("dynassign", "(id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', "
        + "'dynamic-bucket.assigner-parallelism' = '-3')", "'dynamic-bucket.assigner-parallelism'", "positive");
    refused("postponed", "(id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '-2', "
        + "'postpone.default-bucket-num' = '0')", "'postpone.default-bucket-num'", "at least 1");
    refused("minus3", "(id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '-3')",
        "positive number of buckets", "-3");
    refused("zero", "(id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '0')", "bucket", "0");
    refused("words", "(id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = 'four')", "bucket", "four");
  }

  @Test
  void partitionColumnsMustBeInTheKey() {
    refused("part", "(id INT, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')",
        "partition column 'dt' must be part of the primary key");
    refused("onlypart", "(id INT, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'dt', 'bucket' = '2')",
        "only partition columns");
  }

  @Test
  void bucketKeyMustBeANonPartitionKeyColumn() {
    refused("bk_value", "(id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', 'bucket-key' = 'v')",
        "bucket-key", "'v'");
    refused("bk_part", "(id INT, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'id,dt', "
        + "'bucket' = '2', 'bucket-key' = 'dt')", "bucket-key", "'dt'", "not a partition column");
  }

  @Test
  void keyColumnsMustExistAndBeComparable() {
    refused("missing", "(id INT) TBLPROPERTIES ('primary-key' = 'nope', 'bucket' = '2')", "nope");
    refused("arr", "(id ARRAY<INT>, v INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')",
        "'id'", "cannot be a key");
    refused("map", "(id MAP<STRING, INT>, v INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')",
        "'id'", "cannot be a key");
    refused("row", "(id STRUCT<a: INT>, v INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')",
        "'id'", "cannot be a key");
  }

  @Test
  void mergeOptionsAreChecked() {
    refused("agg", "(id INT, total BIGINT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', "
        + "'merge-engine' = 'aggregation', 'fields.total.aggregate-function' = 'median')", "median");
    refused("engine", "(id INT, v INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', "
        + "'merge-engine' = 'newest')", "merge-engine", "newest");
    refused("seq", "(id INT, v INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', "
        + "'sequence.field' = 'nope')", "sequence.field", "nope");
    refused("rowkind", "(id INT, v INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', "
        + "'rowkind.field' = 'v')", "rowkind.field", "STRING");
  }

  @Test
  void featuresLagoonDoesNotWriteAreRefused() {
    refused("dv", "(id INT, v INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', "
        + "'merge-engine' = 'first-row', 'deletion-vectors.enabled' = 'true')", "deletion-vectors.enabled", "first-row");
    refused("changelog", "(id INT, v INT) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', "
        + "'changelog-producer' = 'lookup')", "changelog-producer", "lookup", "'input'");
  }

  @Test
  void ctasIntoABadLayoutCreatesNothing() {
    refused("ctas", "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '-3') AS SELECT 1 AS id",
        "positive number of buckets", "-3");
  }

  @Test
  void fixedBucketsWithoutAPrimaryKeyNeedABucketKey() {
    refused("appendbk", "(id INT) TBLPROPERTIES ('bucket' = '4')", "fixed-bucket append table needs 'bucket-key'");
  }
}
