package io.lagoon.it.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.scan.ScanPlan;
import io.lagoon.core.scan.ScanPlanner;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.Or;
import org.junit.jupiter.api.Test;

/**
 * Bloom filter indexes Paimon 1.3.1 wrote (embedded in the manifest, and as files beside the data)
 * skip files: a miss plans no file, a hit only files that may hold it; random equality, IN, AND,
 * OR and NOT predicates over every indexed type always answer what the rows say (an index never
 * hides a match), nulls included; an unreadable index file is ignored and its data file read.
 */
@RequiresPaimon131
class BloomIndexSkippingTest extends LagoonSparkTest {
  private static final int FILES = 6;
  private static final int ROWS = 50;

  /**
   * Rows {id, s, d, b} of file f, some nulls: even ids spread over every file (each file's min/max
   * range covers the others', so stats cannot skip); odd ids are absent everywhere.
   */
  private static List<Object[]> rows(int f) {
    List<Object[]> out = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      int id = (i * FILES + f) * 2;
      out.add(new Object[] {id, i % 11 == 5 ? null : "s-" + id, LocalDate.of(2000, 1, 1).plusDays(id), (long) id * 7});
    }
    return out;
  }

  private static Path table(String name, String items) {
    Schema schema = Schema.newBuilder().column("id", DataTypes.INT()).column("s", DataTypes.STRING())
        .column("d", DataTypes.DATE()).column("b", DataTypes.BIGINT())
        .option("file-index.bloom-filter.columns", "id,s,d,b").option("file-index.bloom-filter.s.items", items)
        .option("file-index.bloom-filter.id.items", items).option("write-only", "true").build();
    Path dir = PaimonOracle.createTable(warehouse, "bs", name, schema);
    for (int f = 0; f < FILES; f++) {
      List<GenericRow> rows = new ArrayList<>();
      for (Object[] r : rows(f)) {
        rows.add(GenericRow.of(r[0], r[1] == null ? null : BinaryString.fromString((String) r[1]),
            (int) ((LocalDate) r[2]).toEpochDay(), r[3]));
      }
      PaimonOracle.writeRows(dir, rows);
    }
    return dir;
  }

  private static ScanPlan plan(Path dir, String name, Filter... filters) throws Exception {
    FileStoreTable t = FileStoreTable.load(new FileIO(new Configuration()), new org.apache.hadoop.fs.Path(dir.toUri()), name);
    return new ScanPlanner(t).plan(t.snapshots().latest().orElseThrow(), List.of(filters));
  }

  private static int files(ScanPlan p) {
    return p.splits.stream().mapToInt(s -> s.files.size()).sum();
  }

  @Test
  void missesPlanNoFileAndHitsOnlyTheirFile() throws Exception {
    for (String items : new String[] {"60", "1000000"}) {
      String name = "t" + items;
      Path dir = table(name, items);
      assertEquals(FILES, files(plan(dir, "bs." + name)));
      // Values inside every file's min/max range, so stats cannot skip: only the index can.
      ScanPlan miss = plan(dir, "bs." + name, new EqualTo("s", "s-301"));
      assertEquals(0, files(miss), "a miss opens no file (" + items + " items)");
      assertEquals(FILES, miss.filesSkippedByIndex);
      ScanPlan hit = plan(dir, "bs." + name, new EqualTo("s", "s-90"));
      assertTrue(files(hit) >= 1 && files(hit) <= 2, "a hit opens its file (and at most a false positive): " + files(hit));
      ScanPlan in = plan(dir, "bs." + name, new In("id", new Object[] {14, 56, 301}));
      assertTrue(files(in) >= 2 && files(in) <= 3, "IN opens the files of its values: " + files(in));
      ScanPlan or = plan(dir, "bs." + name, new Or(new EqualTo("s", "s-2"), new EqualTo("b", 301L * 7)));
      assertTrue(files(or) >= 1 && files(or) <= 2, "OR opens the files either side may hit: " + files(or));
      assertEquals(List.of("90"), rowsOf(sql("SELECT id FROM lake.bs." + name + " WHERE s = 's-90'")));
      assertEquals(List.of(), rowsOf(sql("SELECT id FROM lake.bs." + name + " WHERE s = 's-301'")));
    }
  }

  private static List<String> rowsOf(org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> df) {
    List<String> out = new ArrayList<>();
    for (org.apache.spark.sql.Row r : df.collectAsList()) out.add(String.valueOf(r.get(0)));
    Collections.sort(out);
    return out;
  }

  /** An index can only prove absence: random predicates answer exactly what the rows say. */
  @Test
  void randomPredicatesNeverLoseARow() {
    String name = "rnd";
    table(name, "20"); // small filters: many false positives, and still no false negative
    List<Object[]> all = new ArrayList<>();
    for (int f = 0; f < FILES; f++) all.addAll(rows(f));
    Random r = new Random(5);
    for (int q = 0; q < 60; q++) {
      int id = r.nextInt(FILES * ROWS * 2 + 20) - 10;
      int other = r.nextInt(FILES * ROWS * 2);
      String[] predicates = {
          "id = " + id, "s = 's-" + id + "'", "d = DATE'" + LocalDate.of(2000, 1, 1).plusDays(id) + "'",
          "b = " + (long) id * 7, "id IN (" + id + ", " + other + ", NULL)", "s IN ('s-" + id + "', 's-" + other + "')",
          "id = " + id + " AND s = 's-" + id + "'", "id = " + id + " OR b = " + (long) other * 7,
          "NOT (id = " + id + ")", "s <=> 's-" + id + "'", "s IS NULL AND id = " + id, "id = " + id + " OR s IS NULL"};
      String where = predicates[q % predicates.length];
      long expected = all.stream().filter(row -> matches(row, where, id, other)).count();
      long got = sql("SELECT count(*) FROM lake.bs." + name + " WHERE " + where).first().getLong(0);
      assertEquals(expected, got, where);
    }
  }

  /** The same predicates evaluated on the rows (SQL semantics: null never equals). */
  private static boolean matches(Object[] row, String where, int id, int other) {
    int rid = (int) row[0];
    String s = (String) row[1];
    long b = (long) row[3];
    LocalDate d = (LocalDate) row[2];
    String sid = "s-" + id;
    if (where.startsWith("id = ") && where.contains(" AND s = ")) return rid == id && sid.equals(s);
    if (where.startsWith("id = ") && where.contains(" OR b = ")) return rid == id || b == (long) other * 7;
    if (where.startsWith("id = ") && where.contains(" OR s IS NULL")) return rid == id || s == null;
    if (where.startsWith("id = ")) return rid == id;
    if (where.startsWith("s = ")) return sid.equals(s);
    if (where.startsWith("d = ")) return d.equals(LocalDate.of(2000, 1, 1).plusDays(id));
    if (where.startsWith("b = ")) return b == (long) id * 7;
    if (where.startsWith("id IN")) return rid == id || rid == other;
    if (where.startsWith("s IN")) return sid.equals(s) || ("s-" + other).equals(s);
    if (where.startsWith("NOT")) return rid != id;
    if (where.startsWith("s <=>")) return sid.equals(s);
    if (where.startsWith("s IS NULL AND")) return s == null && rid == id;
    throw new IllegalArgumentException(where);
  }

  @Test
  void anUnreadableIndexFileIsIgnoredAndItsFileRead() throws Exception {
    Path dir = table("bad", "1000000");
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(p -> p.toString().endsWith(".index")).toList()) Files.write(p, new byte[] {1, 2, 3, 4, 5});
    }
    assertEquals(FILES, files(plan(dir, "bs.bad", new EqualTo("s", "s-301"))), "no file skipped on a broken index");
    assertEquals(List.of("90"), rowsOf(sql("SELECT id FROM lake.bs.bad WHERE s = 's-90'")));
  }
}
