package io.lagoon.it.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * System tables in SQL ({@code `t$snapshots`}, {@code `t$files`}, ...) say what Paimon 1.3.1's own
 * system tables say about the same table: the same columns, and the same rows (ids, counts, file
 * names and paths, stats, partitions rendered alike), on append and primary-key tables with
 * partitions, several commits, a compaction, a tag, a branch, a consumer and a schema change.
 */
@RequiresPaimon131
class SystemTablesTest extends LagoonSparkTest {
  private static final String[] TABLES = {"snapshots", "schemas", "options", "tags", "files", "manifests",
      "partitions", "buckets", "consumers", "branches"};

  @BeforeAll
  static void withProcedures() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
    sql("CREATE NAMESPACE lake.st");
  }

  @ParameterizedTest
  @ValueSource(strings = {"append", "pk", "unpartitioned"})
  void systemTablesAgreeWithPaimons(String kind) throws Exception {
    String t = "t_" + kind;
    String props = kind.equals("pk") ? "TBLPROPERTIES ('primary-key' = 'dt,h,id', 'bucket' = '2')" : "";
    String partitioned = kind.equals("unpartitioned") ? "" : "PARTITIONED BY (dt, h) ";
    sql("CREATE TABLE lake.st." + t + " (dt STRING, h INT, id INT NOT NULL, v STRING, d DATE) " + partitioned + props);
    for (int round = 0; round < 3; round++) {
      sql("INSERT INTO lake.st." + t + " VALUES ('2024-01-01', 0, " + round + ", 'a" + round + "', DATE'2024-02-01'), "
          + "('2024-01-02', 1, " + (round + 10) + ", NULL, NULL), ('2024-01-02', 1, " + (round + 30) + ", 'with space', NULL), ('2024-01-01', 0, " + (round + 20) + ", 'c', DATE'2023-12-31')");
    }
    sql("CALL lake.sys.compact(table => 'st." + t + "', compact_strategy => 'full')");
    sql("INSERT INTO lake.st." + t + " VALUES ('2024-01-03', 2, 99, 'z', DATE'2024-03-03')");
    sql("CALL lake.sys.create_tag(table => 'st." + t + "', tag => 'v1', snapshot => 2)");
    sql("CALL lake.sys.create_tag(table => 'st." + t + "', tag => 'kept', time_retained => '1 d')");
    sql("CALL lake.sys.create_branch(table => 'st." + t + "', branch => 'dev')");
    sql("ALTER TABLE lake.st." + t + " SET TBLPROPERTIES ('snapshot.num-retained.max' = '50')");
    java.nio.file.Path consumers = warehouse.resolve("st.db").resolve(t).resolve("consumer");
    Files.createDirectories(consumers);
    Files.writeString(consumers.resolve("consumer-job1"), "{\n  \"nextSnapshot\" : 3\n}");

    for (String sys : TABLES) {
      String name = t + "$" + sys;
      org.apache.spark.sql.Dataset<Row> df = sql("SELECT * FROM lake.st.`" + name + "`");
      List<String> lagoon = cells(df.collectAsList());
      Paimon paimon = paimonRows(name);
      assertEquals(paimon.columns, List.of(df.schema().fieldNames()), name + " columns");
      if (sys.equals("branches") || sys.equals("tags")) {
        // Creation times are each engine's own reading of the clock or the folder.
        assertEquals(withoutTimes(paimon.rows), withoutTimes(lagoon), name);
      } else {
        assertEquals(paimon.rows, lagoon, name);
      }
      assertFalse(lagoon.isEmpty() && !sys.equals("consumers"), name + " has rows");
    }
    assertEquals(List.of("job1,3"), rows("SELECT * FROM lake.st.`" + t + "$consumers`"));
    // Time travel: the files, manifests and partitions of an earlier snapshot (Paimon's $buckets
    // answers for the latest whatever the snapshot asked; Lagoon's follows the snapshot).
    for (String sys : new String[] {"files", "manifests", "partitions"}) {
      List<String> lagoon = cells(sql("SELECT * FROM lake.st.`" + t + "$" + sys + "` VERSION AS OF 2").collectAsList());
      assertEquals(paimonRows(t + "$" + sys, Map.of("scan.snapshot-id", "2")).rows, lagoon, sys + " as of snapshot 2");
    }
    assertEquals(List.of("dev"), rows("SELECT branch_name FROM lake.st.`" + t + "$branches`"));
    // Plain SQL over them: the snapshot a tag keeps, the files of one partition.
    assertEquals(List.of("v1,2"), rows("SELECT tag_name, snapshot_id FROM lake.st.`" + t + "$tags` WHERE tag_name = 'v1'"));
    if (!kind.equals("unpartitioned")) {
      assertEquals(List.of("{2024-01-03, 2},1"),
          rows("SELECT partition, record_count FROM lake.st.`" + t + "$partitions` WHERE partition LIKE '%01-03%'"));
    }
    Exception e = assertThrows(Exception.class, () -> sql("INSERT INTO lake.st.`" + t + "$files` SELECT * FROM lake.st.`"
        + t + "$files`"));
    assertTrue(e.getMessage() != null, "system tables are read only");
  }

  /** A filter on {@code partition} reads only the manifests that may hold the partition: another one's is never opened. */
  @org.junit.jupiter.api.Test
  void partitionFilterReadsOnlyItsManifests() throws Exception {
    sql("CREATE TABLE lake.st.pf (id INT, dt STRING) PARTITIONED BY (dt)");
    sql("INSERT INTO lake.st.pf VALUES (1, 'a')");
    sql("INSERT INTO lake.st.pf VALUES (2, 'b'), (3, 'b')");
    String manifestOfA = sql("SELECT file_name FROM lake.st.`pf$manifests` WHERE max_partition_stats = '{a}'")
        .first().getString(0);
    // A copy of the table (manifests this JVM has not read and cached yet), whose manifest that
    // only partition a's files are in is damaged: a read of it would fail.
    java.nio.file.Path from = warehouse.resolve("st.db").resolve("pf");
    java.nio.file.Path to = warehouse.resolve("st.db").resolve("pf_copy");
    try (java.util.stream.Stream<java.nio.file.Path> walk = Files.walk(from)) {
      for (java.nio.file.Path p : (Iterable<java.nio.file.Path>) walk::iterator) {
        Files.copy(p, to.resolve(from.relativize(p).toString()));
      }
    }
    Files.write(to.resolve("manifest").resolve(manifestOfA), new byte[] {1, 2, 3});
    assertEquals(List.of("{b},2"),
        rows("SELECT partition, record_count FROM lake.st.`pf_copy$partitions` WHERE partition = '{b}'"));
    assertEquals(List.of("{b},2"), rows("SELECT partition, sum(record_count) FROM lake.st.`pf_copy$files` "
        + "WHERE partition = '{b}' GROUP BY partition"));
    assertThrows(Exception.class, () -> sql("SELECT * FROM lake.st.`pf_copy$files`").collect(), "unfiltered, it is read");
  }

  @ParameterizedTest
  @ValueSource(strings = {"merge", "dv", "append"})
  void readOptimizedViewReadsWhatPaimonsDoes(String kind) throws Exception {
    String t = "ro_" + kind;
    String props = kind.equals("append") ? "" : "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1'"
        + (kind.equals("dv") ? ", 'deletion-vectors.enabled' = 'true'" : "") + ", 'write-only' = 'true')";
    sql("CREATE TABLE lake.st." + t + " (id INT NOT NULL, v STRING) " + props);
    sql("INSERT INTO lake.st." + t + " VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    sql("CALL lake.sys.compact(table => 'st." + t + "', compact_strategy => 'full')");
    // Written after the compaction: level 0, which the read-optimized view does not see yet.
    sql("INSERT INTO lake.st." + t + " VALUES (2, 'b2'), (4, 'd')");
    List<String> ro = rows("SELECT * FROM lake.st.`" + t + "$ro`");
    List<String> paimon = new ArrayList<>();
    for (String r : paimonRows(t + "$ro").rows) paimon.add(r.replace(" | ", ","));
    paimon.sort(null);
    assertEquals(paimon, ro, t + "$ro as Paimon reads it");
    if (kind.equals("append")) {
      assertEquals(rows("SELECT * FROM lake.st." + t), ro, "an append table's view is the table");
    } else {
      assertEquals(List.of("1,a", "2,b", "3,c"), ro, "only the compacted files");
      sql("CALL lake.sys.compact(table => 'st." + t + "', compact_strategy => 'full')");
      assertEquals(rows("SELECT * FROM lake.st." + t), rows("SELECT * FROM lake.st.`" + t + "$ro`"), "all compacted");
    }
    Exception e = assertThrows(Exception.class, () -> sql("INSERT INTO lake.st.`" + t + "$ro` VALUES (9, 'x')"));
    assertTrue(String.valueOf(e.getMessage()).contains("read only"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"merge", "dv", "append", "paimon"})
  void auditLogSaysWhatPaimonsSays(String kind) throws Exception {
    String t = "al_" + kind;
    if (kind.equals("paimon")) {
      // Row kinds as a CDC writer leaves them: updates and a delete not yet compacted away.
      java.nio.file.Path dir = PaimonOracle.createTable(warehouse, "st", t, org.apache.paimon.schema.Schema.newBuilder()
          .column("id", org.apache.paimon.types.DataTypes.INT().notNull()).column("v", org.apache.paimon.types.DataTypes.STRING())
          .primaryKey("id").option("bucket", "2").option("write-only", "true").build());
      PaimonOracle.writeRows(dir, List.of(PaimonOracle.row(1, "a"), PaimonOracle.row(2, "b"), PaimonOracle.row(3, "c")));
      org.apache.paimon.types.RowType rt = PaimonOracle.openTable(dir).rowType();
      PaimonOracle.writeRows(dir, List.of(PaimonOracle.rowOfKind(org.apache.paimon.types.RowKind.DELETE, rt, 1, "a"),
          PaimonOracle.rowOfKind(org.apache.paimon.types.RowKind.UPDATE_AFTER, rt, 2, "b2")));
    } else {
      String props = kind.equals("append") ? "TBLPROPERTIES ('deletion-vectors.enabled' = 'true')"
          : "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', 'write-only' = 'true'"
              + (kind.equals("dv") ? ", 'deletion-vectors.enabled' = 'true'" : "") + ")";
      sql("CREATE TABLE lake.st." + t + " (id INT NOT NULL, v STRING) " + props);
      sql("INSERT INTO lake.st." + t + " VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')");
      sql("CALL lake.sys.compact(table => 'st." + t + "', compact_strategy => 'full')");
      sql("DELETE FROM lake.st." + t + " WHERE id = 1");
      sql("UPDATE lake.st." + t + " SET v = 'b2' WHERE id = 2");
    }
    List<String> audit = rows("SELECT * FROM lake.st.`" + t + "$audit_log`");
    List<String> paimon = new ArrayList<>();
    for (String r : paimonRows(t + "$audit_log").rows) paimon.add(r.replace(" | ", ","));
    paimon.sort(null);
    assertEquals(paimon, audit, t + "$audit_log as Paimon reads it");
    assertEquals(List.of("rowkind", "id", "v"), List.of(sql("SELECT * FROM lake.st.`" + t + "$audit_log`").schema().fieldNames()));
    if (kind.equals("paimon")) {
      assertEquals(List.of("+I,3,c", "+U,2,b2", "-D,1,a"), audit, "each key's last record kind, the delete kept");
    }
  }

  private static List<String> cells(List<Row> rows) {
    List<String> out = new ArrayList<>();
    for (Row r : rows) {
      List<String> cells = new ArrayList<>();
      for (int i = 0; i < r.length(); i++) cells.add(String.valueOf(r.get(i)));
      out.add(String.join(" | ", cells));
    }
    out.sort(null);
    return out;
  }

  private static List<String> withoutTimes(List<String> rows) {
    List<String> out = new ArrayList<>();
    for (String r : rows) out.add(r.replaceAll("\\d{4}-\\d\\d-\\d\\dT[\\d:.]+", "<time>"));
    return out;
  }

  private record Paimon(List<String> columns, List<String> rows) {
  }

  /** Paimon 1.3.1's own system table over the same folder, rendered like {@link #cells}. */
  private static Paimon paimonRows(String name) throws Exception {
    return paimonRows(name, Map.of());
  }

  private static Paimon paimonRows(String name, Map<String, String> options) throws Exception {
    try (Catalog c = PaimonOracle.catalog(warehouse)) {
      Table st = c.getTable(Identifier.create("st", name));
      if (!options.isEmpty()) st = st.copy(options);
      RowType rt = st.rowType();
      ReadBuilder rb = st.newReadBuilder();
      List<String> out = new ArrayList<>();
      try (RecordReader<InternalRow> r = rb.newRead().createReader(rb.newScan().plan())) {
        r.forEachRemaining(row -> {
          List<String> cells = new ArrayList<>();
          for (int i = 0; i < rt.getFieldCount(); i++) {
            cells.add(String.valueOf(InternalRow.createFieldGetter(rt.getTypeAt(i), i).getFieldOrNull(row)));
          }
          out.add(String.join(" | ", cells));
        });
      }
      out.sort(null);
      return new Paimon(rt.getFieldNames(), out);
    }
  }
}
