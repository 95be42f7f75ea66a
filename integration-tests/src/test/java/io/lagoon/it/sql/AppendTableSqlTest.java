package io.lagoon.it.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class AppendTableSqlTest extends LagoonSparkTest {

  @Test
  void insertAndSelectRoundTrip() throws Exception {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.db1");
    sql("CREATE TABLE lake.db1.t (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt)");
    sql("INSERT INTO lake.db1.t VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, null, 'x')");
    sql("INSERT INTO lake.db1.t VALUES (4, 'd', 'y')");
    assertEquals(list("1,a,x", "2,b,y", "3,null,x", "4,d,y"), rows("SELECT * FROM lake.db1.t"));
    assertEquals(list("1,a,x", "3,null,x"), rows("SELECT * FROM lake.db1.t WHERE dt = 'x'"));
    assertEquals(list("2"), rows("SELECT id FROM lake.db1.t WHERE name = 'b'"));
    assertEquals(list("4"), rows("SELECT count(*) FROM lake.db1.t"));
    Path table = warehouse.resolve("db1.db/t");
    assertTrue(Files.exists(table.resolve("schema/schema-0")));
    assertTrue(Files.exists(table.resolve("snapshot/snapshot-2")));
    assertTrue(Files.isDirectory(table.resolve("dt=x/bucket-0")));
  }
}
