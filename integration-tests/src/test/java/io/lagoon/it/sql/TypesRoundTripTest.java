package io.lagoon.it.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.it.LagoonSparkTest;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every supported type written and read back exactly, nulls included, in both file formats. */
class TypesRoundTripTest extends LagoonSparkTest {

  private static final String COLUMNS = "b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE, "
      + "dec DECIMAL(10, 2), bigdec DECIMAL(38, 10), s STRING, vc VARCHAR(10), c CHAR(4), bin BINARY, dt DATE, "
      + "ts TIMESTAMP, ntz TIMESTAMP_NTZ, arr ARRAY<INT>, m MAP<STRING, BIGINT>, st STRUCT<x: INT, y: STRING>, "
      + "nested ARRAY<STRUCT<k: STRING, v: ARRAY<DOUBLE>>>";

  // Pre-epoch NTZ value: not within the last second before the epoch, which ORC cannot store
  // (its Java writer truncates seconds toward zero; Paimon's ORC files have the same limit).
  private static final String VALUES = "(true, 1Y, 2S, 3, 4L, 1.5F, 2.25D, 12345678.91BD, "
      + "CAST('1234567890123456789012345678.0123456789' AS DECIMAL(38, 10)), 'hello world, a longer string', "
      + "'short', 'ab', X'CAFE', DATE'2024-02-29', TIMESTAMP'2024-01-02 03:04:05.123456', "
      + "TIMESTAMP_NTZ'1969-12-31 23:59:58.999999', array(1, null, 3), map('a', 1L, 'b', null), "
      + "named_struct('x', 7, 'y', 'why'), array(named_struct('k', 'kk', 'v', array(1.0D, null)))), "
      + "(false, -128Y, -32768S, -2147483648, -9223372036854775808L, -0.0F, double('NaN'), -0.01BD, "
      + "CAST('-0.0000000001' AS DECIMAL(38, 10)), '', '', '', X'', DATE'0001-01-01', "
      + "TIMESTAMP'1900-01-01 00:00:00', TIMESTAMP_NTZ'9999-12-31 23:59:59.999999', array(), map(), "
      + "named_struct('x', null, 'y', null), array()), "
      + "(null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, "
      + "null, null, null)";

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void everyTypeRoundTrips(String format) {
    String t = "lake.types_" + format + ".t";
    sql("CREATE NAMESPACE IF NOT EXISTS lake.types_" + format);
    sql("CREATE TABLE " + t + " (" + COLUMNS + ") TBLPROPERTIES ('file.format'='" + format + "')");
    sql("INSERT INTO " + t + " VALUES " + VALUES);
    sql("CREATE OR REPLACE TEMPORARY VIEW expected_" + format + " AS SELECT * FROM (SELECT * FROM VALUES " + VALUES
        + " AS v(b, ti, si, i, bi, f, d, dec, bigdec, s, vc, c, bin, dt, ts, ntz, arr, m, st, nested))");
    List<Row> expected = sql("SELECT * FROM " + t).schema().fields().length == 20
        ? sql("SELECT CAST(b AS BOOLEAN), ti, si, i, bi, f, d, dec, bigdec, s, vc, rpad(c, 4, ' '), bin, dt, ts, ntz, "
            + "arr, m, st, nested FROM expected_" + format).collectAsList()
        : null;
    assertEquals(render(expected), render(sql("SELECT * FROM " + t).collectAsList()));
    // and column by column, through the non-vectorized path too
    spark.conf().set("spark.sql.parquet.enableVectorizedReader", "false");
    spark.conf().set("spark.sql.orc.enableVectorizedReader", "false");
    try {
      assertEquals(render(expected), render(sql("SELECT * FROM " + t).collectAsList()));
    } finally {
      spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
      spark.conf().unset("spark.sql.orc.enableVectorizedReader");
    }
    assertEquals(list("1.5,2.25,12345678.91"), rows("SELECT f, d, dec FROM " + t + " WHERE i = 3"));
    assertEquals(list("2.0"), rows("SELECT count(*) * 1.0 FROM " + t + " WHERE b IS NOT NULL"));
  }
}
