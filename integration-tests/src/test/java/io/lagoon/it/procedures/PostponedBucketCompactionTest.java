package io.lagoon.it.procedures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code CALL sys.compact} on postponed-bucket tables ({@code 'bucket'='-2'}) written by Paimon
 * 1.3.1, whose rows wait invisible in {@code bucket-postpone} (Avro files): compaction gives them
 * the buckets Paimon's hash picks over the partition's bucket count (existing count kept,
 * {@code postpone.default-bucket-num} for new partitions), replays them in write order (deletes,
 * merge engines, no record applied twice), and both engines then read the same rows as a model of
 * the writes.
 */
@RequiresPaimon131
class PostponedBucketCompactionTest extends LagoonSparkTest {
  @BeforeAll
  static void withExtensions() {
    spark.stop();
    spark = newSession(warehouse, Map.of("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions"));
  }

  private static Schema schema(String... options) {
    Schema.Builder b = Schema.newBuilder().column("id", DataTypes.INT().notNull()).column("p", DataTypes.INT().notNull())
        .column("v", DataTypes.STRING()).column("n", DataTypes.BIGINT()).primaryKey("id", "p").partitionKeys("p");
    for (int i = 0; i < options.length; i += 2) b.option(options[i], options[i + 1]);
    return b.build();
  }

  private static String render(int id, int p, String v, Long n) {
    return "id=" + id + ", p=" + p + ", v=" + v + ", n=" + n;
  }

  /** Rows Paimon reads, and Lagoon reads, sorted. */
  private static void assertBothRead(Path table, String name, TreeMap<String, String> model) {
    List<String> expected = new ArrayList<>(model.values());
    java.util.Collections.sort(expected);
    List<String> paimon = new ArrayList<>(PaimonOracle.readRows(table));
    java.util.Collections.sort(paimon);
    assertEquals(expected, paimon, "Paimon reads the model's rows");
    List<String> lagoon = new ArrayList<>(SparkRows.renderAll(sql("SELECT * FROM lake." + name)));
    java.util.Collections.sort(lagoon);
    assertEquals(expected, lagoon, "Lagoon reads the model's rows");
  }

  /** Key (first two columns) -> {bucket, bucket count} of every live row, as Paimon's splits place them. */
  private static Map<String, int[]> bucketsOf(Path tableDir) {
    return PaimonOracle.bucketPlacement(tableDir, row -> row.getInt(0) + "/" + row.getInt(1));
  }


  /** The bucket Paimon gives each key on a fixed-bucket table of {@code n} buckets, from Paimon's own write. */
  private static Map<String, Integer> paimonBuckets(String name, int n, List<int[]> keys) throws Exception {
    Path t = PaimonOracle.createTable(warehouse, "pb_oracle", name, schema("bucket", Integer.toString(n)));
    List<GenericRow> rows = new ArrayList<>();
    for (int[] k : keys) rows.add(GenericRow.of(k[0], k[1], BinaryString.fromString("x"), 0L));
    PaimonOracle.writeRows(t, rows);
    Map<String, Integer> out = new HashMap<>();
    for (Map.Entry<String, int[]> e : bucketsOf(t).entrySet()) out.put(e.getKey(), e.getValue()[0]);
    return out;
  }

  @Test
  void postponedRowsGetPaimonsBucketsInWriteOrderAndBothEnginesReadThem() throws Exception {
    Path table = PaimonOracle.createTable(warehouse, "pb", "t", schema("bucket", "-2", "postpone.default-bucket-num", "2"));
    TreeMap<String, String> model = new TreeMap<>();
    Random random = new Random(7);
    // Three Paimon commits of upserts and deletes over overlapping keys of two partitions.
    for (int c = 0; c < 3; c++) {
      List<GenericRow> rows = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        int id = random.nextInt(30);
        int p = random.nextInt(2);
        String key = id + "/" + p;
        if (c > 0 && random.nextInt(5) == 0) {
          rows.add(GenericRow.ofKind(RowKind.DELETE, id, p, BinaryString.fromString("gone"), 0L));
          model.remove(key);
        } else {
          String v = "c" + c + "-" + i;
          rows.add(GenericRow.of(id, p, BinaryString.fromString(v), (long) i));
          model.put(key, render(id, p, v, (long) i));
        }
      }
      PaimonOracle.writeRows(table, rows);
    }
    assertTrue(java.nio.file.Files.isDirectory(table.resolve("p=0").resolve("bucket-postpone")));
    assertEquals(List.of(), PaimonOracle.readRows(table), "postponed rows are invisible before compaction");
    assertEquals(0L, sql("SELECT count(*) FROM lake.pb.t").first().getLong(0));

    List<org.apache.spark.sql.Row> result = sql("CALL lake.sys.compact(table => 'pb.t')").collectAsList();
    assertTrue(result.get(0).getBoolean(0));
    assertTrue(result.get(0).getInt(1) >= 6, "the six postponed files were read: " + result.get(0));
    assertBothRead(table, "pb.t", model);

    assertTrue(PaimonOracle.openTable(table).store().newScan().plan().files().stream().noneMatch(e -> e.bucket() == -2),
        "no postponed file is live after compaction");
    Map<String, int[]> placed = bucketsOf(table);
    List<int[]> keys = new ArrayList<>();
    for (String k : placed.keySet()) {
      String[] parts = k.split("/");
      keys.add(new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])});
    }
    Map<String, Integer> expected = paimonBuckets("two", 2, keys);
    for (Map.Entry<String, int[]> e : placed.entrySet()) {
      assertEquals(2, e.getValue()[1], "partitions without buckets get postpone.default-bucket-num");
      assertEquals(expected.get(e.getKey()), e.getValue()[0], "key " + e.getKey() + " sits in Paimon's bucket");
    }

    // Paimon writes more postponed rows, into the old partitions and a new one; a later default
    // applies only to the new partition.
    TreeMap<String, String> visible = new TreeMap<>(model);
    List<GenericRow> more = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      int id = random.nextInt(30);
      int p = random.nextInt(3);
      String v = "d" + i;
      more.add(GenericRow.of(id, p, BinaryString.fromString(v), (long) -i));
      model.put(id + "/" + p, render(id, p, v, (long) -i));
    }
    String deleted = model.firstKey();
    String[] dk = deleted.split("/");
    more.add(GenericRow.ofKind(RowKind.DELETE, Integer.parseInt(dk[0]), Integer.parseInt(dk[1]),
        BinaryString.fromString("gone"), 0L));
    model.remove(deleted);
    PaimonOracle.writeRows(table, more);
    assertBothRead(table, "pb.t", visible);
    sql("CALL lake.sys.compact(table => 'pb.t', compact_strategy => 'minor', options => 'postpone.default-bucket-num=3')");
    assertBothRead(table, "pb.t", model);
    for (Map.Entry<String, int[]> e : bucketsOf(table).entrySet()) {
      int expectedCount = e.getKey().endsWith("/2") ? 3 : 2;
      assertEquals(expectedCount, e.getValue()[1], "bucket count of " + e.getKey());
    }

    long before = PaimonOracle.latestSnapshotId(table).orElseThrow();
    sql("CALL lake.sys.compact(table => 'pb.t', compact_strategy => 'minor')");
    assertEquals(before, PaimonOracle.latestSnapshotId(table).orElseThrow(), "nothing postponed: nothing committed");
  }

  @Test
  void aggregationAppliesEachPostponedRecordOnce() throws Exception {
    Path table = PaimonOracle.createTable(warehouse, "pb", "agg", schema("bucket", "-2", "merge-engine", "aggregation",
        "fields.n.aggregate-function", "sum", "fields.v.aggregate-function", "last_non_null_value"));
    PaimonOracle.writeRows(table, List.of(GenericRow.of(1, 0, BinaryString.fromString("a"), 5L),
        GenericRow.of(2, 0, BinaryString.fromString("b"), 1L)));
    PaimonOracle.writeRows(table, List.of(GenericRow.of(1, 0, BinaryString.fromString("c"), 7L)));
    sql("CALL lake.sys.compact(table => 'pb.agg')");
    TreeMap<String, String> model = new TreeMap<>();
    model.put("1", render(1, 0, "c", 12L));
    model.put("2", render(2, 0, "b", 1L));
    assertBothRead(table, "pb.agg", model);
    PaimonOracle.writeRows(table, List.of(GenericRow.of(1, 0, null, 1L)));
    sql("CALL lake.sys.compact(table => 'pb.agg')");
    model.put("1", render(1, 0, "c", 13L));
    assertBothRead(table, "pb.agg", model);
    assertFalse(PaimonOracle.readRows(table).isEmpty());
  }

  /** Every type Paimon writes into its Avro postponed files reads back as Paimon reads it after compaction. */
  @Test
  void avroFilesOfEveryTypeReadAsPaimonReadsThem() throws Exception {
    Schema schema = Schema.newBuilder().column("id", DataTypes.INT().notNull()).column("b", DataTypes.BOOLEAN())
        .column("t", DataTypes.TINYINT()).column("s", DataTypes.SMALLINT()).column("l", DataTypes.BIGINT())
        .column("f", DataTypes.FLOAT()).column("d", DataTypes.DOUBLE()).column("dec", DataTypes.DECIMAL(10, 2))
        .column("big", DataTypes.DECIMAL(30, 5)).column("str", DataTypes.STRING()).column("bin", DataTypes.BYTES())
        .column("day", DataTypes.DATE()).column("ts3", DataTypes.TIMESTAMP(3)).column("ts6", DataTypes.TIMESTAMP(6))
        .column("ltz", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6)).column("arr", DataTypes.ARRAY(DataTypes.INT()))
        .column("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT()))
        .column("mi", DataTypes.MAP(DataTypes.INT(), DataTypes.STRING()))
        .column("st", DataTypes.ROW(DataTypes.FIELD(100, "x", DataTypes.INT()), DataTypes.FIELD(101, "y", DataTypes.STRING())))
        .primaryKey("id").option("bucket", "-2").option("postpone.default-bucket-num", "3").build();
    Path table = PaimonOracle.createTable(warehouse, "pb", "types", schema);
    org.apache.paimon.types.RowType rowType = PaimonOracle.openTable(table).rowType();
    List<GenericRow> rows = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      boolean nulls = i % 4 == 3;
      rows.add(PaimonOracle.row(rowType, i, nulls ? null : i % 2 == 0, nulls ? null : (byte) -i, nulls ? null : (short) (i * 300),
          nulls ? null : -1234567890123L * i, nulls ? null : 1.5f * i, nulls ? null : -2.25 * i,
          nulls ? null : new java.math.BigDecimal("-1234.5" + i), nulls ? null : new java.math.BigDecimal("12345678901234567890.1234" + i),
          nulls ? null : "str-" + i + "-\u00e9", nulls ? null : new byte[] {(byte) i, -1, 0},
          nulls ? null : java.time.LocalDate.of(1900 + i * 10, 2, 28),
          nulls ? null : java.time.LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_000_000),
          nulls ? null : java.time.LocalDateTime.of(1969, 12, 31, 23, 59, 58, 123_456_000 + i * 1000),
          nulls ? null : java.time.Instant.parse("2024-06-01T10:00:00.654321Z").plusSeconds(i),
          nulls ? null : List.of(i, -i, 7), nulls ? null : Map.of("k" + i, (long) i),
          nulls ? null : Map.of(i, "v" + i), nulls ? null : List.of(i * 10, "y" + i)));
    }
    PaimonOracle.writeRows(table, rows);
    assertTrue(java.nio.file.Files.list(table.resolve("bucket-postpone")).anyMatch(f -> f.toString().endsWith(".avro")),
        "Paimon wrote the postponed rows as Avro");
    sql("CALL lake.sys.compact(table => 'pb.types')");
    List<String> paimon = new ArrayList<>(PaimonOracle.readRows(table));
    java.util.Collections.sort(paimon);
    assertEquals(12, paimon.size());
    List<String> lagoon = new ArrayList<>(SparkRows.renderAll(sql("SELECT * FROM lake.pb.types")));
    java.util.Collections.sort(lagoon);
    assertEquals(paimon, lagoon);
  }
}
