package io.lagoon.it.pk;

import static io.lagoon.it.ddl.WarehouseListing.messages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.data.BucketFunction;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeJson;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.spark.functions.BucketKeyTypes;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * The catalog's {@code paimon_bucket} function, called through SQL, gives for every key exactly
 * the bucket of {@link BucketFunction} (which is checked byte for byte against Paimon elsewhere),
 * with the key's exact Paimon types.
 */
class PkBucketFunctionTest extends LagoonSparkTest {
  private static final int N = 7;

  private static String types(String... atomic) {
    List<PaimonType> t = new ArrayList<>();
    for (String a : atomic) t.add(TypeJson.parseAtomic(a));
    return BucketKeyTypes.encode(t);
  }

  private static int expected(List<String> atomic, Object... internalValues) {
    List<PaimonType> t = new ArrayList<>();
    for (String a : atomic) t.add(TypeJson.parseAtomic(a));
    return BucketFunction.bucket(new GenericInternalRow(internalValues), t, N);
  }

  /** Calls the function in SQL over {@code from}, returning (rendered key, bucket) rows. */
  private static List<Row> call(String typesText, String keys, String from) {
    return sql("SELECT " + keys + ", lake.paimon_bucket(" + N + ", '" + typesText + "', " + keys + ") FROM " + from)
        .collectAsList();
  }

  @Test
  void intKeys() {
    List<Row> rows = call(types("INT"), "id", "(SELECT CAST(id AS INT) AS id FROM range(-100, 300))");
    assertEquals(400, rows.size());
    for (Row r : rows) assertEquals(expected(List.of("INT"), r.getInt(0)), r.getInt(1), "id " + r.getInt(0));
  }

  @Test
  void stringKeysShortAndLong() {
    List<Row> rows = call(types("STRING"), "s",
        "(SELECT IF(id % 2 = 0, CAST(id AS STRING), repeat('key-', CAST(id % 5 AS INT)) || id) AS s FROM range(200))");
    for (Row r : rows) {
      assertEquals(expected(List.of("STRING"), UTF8String.fromString(r.getString(0))), r.getInt(1), r.getString(0));
    }
  }

  @Test
  void decimalKeysCompactAndWide() {
    for (String[] c : new String[][] {{"DECIMAL(10, 2)", "10", "2"}, {"DECIMAL(38, 10)", "38", "10"}}) {
      List<Row> rows = call(types(c[0]), "d",
          "(SELECT CAST(id * 7.31 AS DECIMAL(" + c[1] + ", " + c[2] + ")) AS d FROM range(-50, 150))");
      for (Row r : rows) {
        BigDecimal d = r.getDecimal(0);
        Decimal v = Decimal.apply(d, Integer.parseInt(c[1]), Integer.parseInt(c[2]));
        assertEquals(expected(List.of(c[0]), v), r.getInt(1), c[0] + " " + d);
      }
    }
  }

  @Test
  void timestampKeysHashWithTheirDeclaredPrecision() {
    String from = "(SELECT timestamp_ntz'2024-03-01 10:00:00' + make_dt_interval(0, 0, 0, id * 1.001) AS ts "
        + "FROM range(300))";
    int differ = 0;
    List<Row> ms = call(types("TIMESTAMP(3)"), "ts", from);
    List<Row> us = call(types("TIMESTAMP(6)"), "ts", from);
    for (int i = 0; i < ms.size(); i++) {
      LocalDateTime ts = (LocalDateTime) ms.get(i).get(0);
      long micros = ts.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + ts.getNano() / 1000;
      assertEquals(expected(List.of("TIMESTAMP(3)"), micros), ms.get(i).getInt(1), "TIMESTAMP(3) " + ts);
      assertEquals(expected(List.of("TIMESTAMP(6)"), micros), us.get(i).getInt(1), "TIMESTAMP(6) " + ts);
      if (ms.get(i).getInt(1) != us.get(i).getInt(1)) differ++;
    }
    // The two layouts hash differently: the types argument is what keeps buckets right.
    assertTrue(differ > 100, "TIMESTAMP(3) and TIMESTAMP(6) buckets differ for most keys, got " + differ);
    List<Row> ltz = call(types("TIMESTAMP(3) WITH LOCAL TIME ZONE"), "ts",
        "(SELECT timestamp'2024-03-01 10:00:00' + make_dt_interval(0, 0, 0, id * 1.001) AS ts FROM range(50))");
    for (Row r : ltz) {
      long micros = ((java.sql.Timestamp) r.get(0)).toInstant().getEpochSecond() * 1_000_000L
          + ((java.sql.Timestamp) r.get(0)).getNanos() / 1000;
      assertEquals(expected(List.of("TIMESTAMP(3) WITH LOCAL TIME ZONE"), micros), r.getInt(1));
    }
  }

  @Test
  void multiColumnKey() {
    List<Row> rows = call(types("INT NOT NULL", "STRING", "DATE"), "a, b, c",
        "(SELECT CAST(id AS INT) AS a, 'k' || (id % 13) AS b, date_add(DATE'2024-01-01', CAST(id AS INT)) AS c "
        + "FROM range(200))");
    for (Row r : rows) {
      int days = (int) r.getDate(2).toLocalDate().toEpochDay();
      assertEquals(expected(List.of("INT", "STRING", "DATE"), r.getInt(0), UTF8String.fromString(r.getString(1)), days),
          r.getInt(3), r.toString());
    }
  }

  @Test
  void misuseIsExplained() {
    Throwable e = assertThrows(Throwable.class,
        () -> sql("SELECT lake.paimon_bucket(4, '" + types("BIGINT") + "', 1)").collect());
    assertTrue(messages(e).contains("keyTypes says BIGINT"), messages(e));
    e = assertThrows(Throwable.class,
        () -> sql("SELECT lake.paimon_bucket(4, '" + types("INT", "INT") + "', 1)").collect());
    assertTrue(messages(e).contains("lists 2 types for 1 key columns"), messages(e));
    e = assertThrows(Throwable.class, () -> sql("SELECT lake.paimon_bucket(4, 'INT', 1)").collect());
    assertTrue(messages(e).contains("JSON array of Paimon types"), messages(e));
    e = assertThrows(Throwable.class, () -> sql("SELECT lake.paimon_bucket(4, 1)").collect());
    assertTrue(messages(e).contains("usage: paimon_bucket(numBuckets INT, keyTypes STRING"), messages(e));
  }

  /**
   * Spark's hash partitioning ({@code pmod(hash(x), n)}, the same Murmur3 as its shuffle) sends
   * {@code paimon_bucket_task} of a key to the partition numbered like its bucket, for any n.
   */
  @Test
  void taskKeysShuffleEachBucketIntoItsOwnPartition() {
    for (int n : new int[] {1, 2, 3, 4, 7, 16, 100, 1000}) {
      String args = n + ", '" + types("BIGINT") + "', id";
      List<Row> rows = sql("SELECT id, lake.paimon_bucket(" + args + "), pmod(hash(lake.paimon_bucket_task(" + args
          + ")), " + n + ") FROM range(-500, 2500)").collectAsList();
      for (Row r : rows) assertEquals(r.getInt(1), r.getInt(2), "n " + n + ", id " + r.getLong(0));
    }
  }

  @Test
  void listedInTheCatalog() {
    List<String> names = new ArrayList<>();
    for (Row r : sql("SHOW USER FUNCTIONS IN lake.sys").collectAsList()) names.add(r.getString(0));
    assertTrue(names.toString().contains("paimon_bucket"), names.toString());
    assertTrue(names.toString().contains("paimon_bucket_task"), names.toString());
    assertEquals(expected(List.of("INT"), 42), sql("SELECT lake.sys.paimon_bucket(" + N + ", '" + types("INT")
        + "', 42)").collectAsList().get(0).getInt(0));
  }
}
