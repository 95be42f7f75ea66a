package io.lagoon.it.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.SparkTypes;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.spark.read.LagoonScanBuilder;
import io.lagoon.spark.read.MetadataColumns;
import io.lagoon.spark.read.RewriteScan;
import java.util.List;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.LiteralValue;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * A copy-on-write statement learns which files hold matches from Spark's subquery, which scans the
 * table on its own, later. When a commit came in between, that subquery names files the rewrite's
 * own scan never planned (the rewritten file under its new name): the statement must fail as a
 * conflict, not skip the file and report success with the change lost.
 */
class RewriteScanConflictTest extends LagoonSparkTest {
  private static Predicate fileIn(String... paths) {
    Expression[] children = new Expression[paths.length + 1];
    children[0] = Expressions.column(MetadataColumns.FILE);
    for (int i = 0; i < paths.length; i++) {
      children[i + 1] = LiteralValue.apply(UTF8String.fromString(paths[i]), DataTypes.StringType);
    }
    return new Predicate("IN", children);
  }

  @Test
  void filesTheScanDidNotPlanAreAConflict() throws Exception {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.cow");
    sql("CREATE TABLE lake.cow.t (id INT, n INT)");
    sql("INSERT INTO lake.cow.t VALUES (1, 0), (2, 0)");
    FileStoreTable table = FileStoreTable.load(new FileIO(spark.sparkContext().hadoopConfiguration()),
        new org.apache.hadoop.fs.Path(warehouse.resolve("cow.db/t").toUri().toString()), "cow.t");
    RewriteScan[] built = new RewriteScan[1];
    new LagoonScanBuilder(table, SparkTypes.toSpark(table.schema().fields())).forRewrite(s -> built[0] = (RewriteScan) s)
        .build();
    RewriteScan scan = built[0];
    List<String> planned = rows("SELECT DISTINCT _file FROM lake.cow.t");
    assertEquals(planned.size(), scan.filesToRead());
    String other = rows("SELECT _file FROM lake.cow.t WHERE id = 2").get(0);

    // Another writer rewrites the file of id 1 meanwhile; the subquery sees it under its new name.
    sql("UPDATE lake.cow.t SET n = n + 1 WHERE id = 1");
    String rewritten = rows("SELECT _file FROM lake.cow.t WHERE id = 1").get(0);
    assertTrue(!planned.contains(rewritten));
    CommitConflictException e = assertThrows(CommitConflictException.class,
        () -> scan.filter(new Predicate[] {fileIn(rewritten)}));
    assertTrue(e.getMessage().contains("Conflict") && e.getMessage().contains(rewritten), e.getMessage());

    // Files it did plan narrow the scan as before.
    scan.filter(new Predicate[] {fileIn(other)});
    assertEquals(1, scan.filesToRead());
    assertEquals(List.of("1,1", "2,0"), rows("SELECT * FROM lake.cow.t ORDER BY id"));
  }
}
