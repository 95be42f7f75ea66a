package io.lagoon.it.scratch;

import io.lagoon.it.LagoonSparkTest;
import org.junit.jupiter.api.Test;

class PkUpdateProbeTest extends LagoonSparkTest {
  static long time(String q) {
    long t = System.nanoTime();
    sql(q).collectAsList();
    return (System.nanoTime() - t) / 1_000_000;
  }

  @Test
  void probe() {
    sql("CREATE NAMESPACE lake.b");
    sql("CREATE TABLE lake.b.t (id BIGINT NOT NULL, qty INT, customer STRING, price DOUBLE) TBLPROPERTIES ('primary-key'='id','bucket'='4')");
    String rows = "SELECT id, CAST(pmod(hash(id, 0), 1000) AS INT) AS qty, concat('customer-', CAST(pmod(hash(id, 7), 50000) AS STRING)) AS customer, CAST(pmod(hash(id, 3), 100000) AS DOUBLE) / 4.0 AS price FROM range(%d, %d, 1, 8)";
    for (int p = 0; p < 4; p++) sql("INSERT INTO lake.b.t " + String.format(rows, p * 250000, (p + 1) * 250000));
    for (int round = 0; round < 3; round++) {
      System.out.println("PROBE scan all cols filtered " + time("SELECT * FROM lake.b.t WHERE pmod(hash(id, 13), 100) = 0"));
      System.out.println("PROBE scan ids filtered " + time("SELECT id FROM lake.b.t WHERE pmod(hash(id, 13), 100) = 0"));
      System.out.println("PROBE count " + time("SELECT count(*) FROM lake.b.t"));
      System.out.println("PROBE update " + time("UPDATE lake.b.t SET price = price + 1, qty = qty + 1 WHERE pmod(hash(id, 13 + " + round + "), 100) = 0"));
      System.out.println("PROBE insert 10k " + time("INSERT INTO lake.b.t " + String.format(rows, 2000000 + round * 10000, 2010000 + round * 10000)));
      System.out.println("PROBE files " + rows("SELECT count(DISTINCT _file) FROM lake.b.t").size());
    }
  }
}
