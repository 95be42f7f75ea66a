package io.lagoon.it.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.paimon.types.DataType;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

import scala.collection.JavaConverters;

/** {@link SparkRows} and {@link PaimonOracle} render the same logical row identically. */
@RequiresPaimon131
class SparkRowsTest {

    private static final RowType PAIMON = RowType.of(new DataType[] {
        org.apache.paimon.types.DataTypes.INT(), org.apache.paimon.types.DataTypes.BOOLEAN(),
        org.apache.paimon.types.DataTypes.TINYINT(), org.apache.paimon.types.DataTypes.SMALLINT(),
        org.apache.paimon.types.DataTypes.BIGINT(), org.apache.paimon.types.DataTypes.FLOAT(),
        org.apache.paimon.types.DataTypes.DOUBLE(), org.apache.paimon.types.DataTypes.DECIMAL(10, 2),
        org.apache.paimon.types.DataTypes.DECIMAL(38, 10), org.apache.paimon.types.DataTypes.STRING(),
        org.apache.paimon.types.DataTypes.BYTES(), org.apache.paimon.types.DataTypes.DATE(),
        org.apache.paimon.types.DataTypes.TIMESTAMP(6), org.apache.paimon.types.DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6),
        org.apache.paimon.types.DataTypes.ARRAY(org.apache.paimon.types.DataTypes.INT()),
        org.apache.paimon.types.DataTypes.MAP(org.apache.paimon.types.DataTypes.STRING(), org.apache.paimon.types.DataTypes.INT()),
        org.apache.paimon.types.DataTypes.ROW(
            org.apache.paimon.types.DataTypes.FIELD(100, "x", org.apache.paimon.types.DataTypes.INT()),
            org.apache.paimon.types.DataTypes.FIELD(101, "y", org.apache.paimon.types.DataTypes.ARRAY(
                org.apache.paimon.types.DataTypes.STRING())))},
        new String[] {"id", "b", "ti", "si", "big", "f", "db", "dec", "dec38", "s", "bin", "d", "ts", "tsl", "arr", "m", "st"});

    private static final StructType SPARK = new StructType()
            .add("id", DataTypes.IntegerType).add("b", DataTypes.BooleanType).add("ti", DataTypes.ByteType)
            .add("si", DataTypes.ShortType).add("big", DataTypes.LongType).add("f", DataTypes.FloatType)
            .add("db", DataTypes.DoubleType).add("dec", DataTypes.createDecimalType(10, 2))
            .add("dec38", DataTypes.createDecimalType(38, 10)).add("s", DataTypes.StringType)
            .add("bin", DataTypes.BinaryType).add("d", DataTypes.DateType).add("ts", DataTypes.TimestampNTZType)
            .add("tsl", DataTypes.TimestampType).add("arr", DataTypes.createArrayType(DataTypes.IntegerType))
            .add("m", DataTypes.createMapType(DataTypes.StringType, DataTypes.IntegerType))
            .add("st", new StructType().add("x", DataTypes.IntegerType)
                    .add("y", DataTypes.createArrayType(DataTypes.StringType)));

    private static <T> scala.collection.Seq<T> seq(List<T> list) {
        return JavaConverters.asScalaBufferConverter(list).asScala().toSeq();
    }

    private static <K, V> scala.collection.Map<K, V> scalaMap(Map<K, V> map) {
        return JavaConverters.mapAsScalaMapConverter(map).asScala();
    }

    @Test
    void sameStringAsPaimonOracle() {
        LocalDate date = LocalDate.of(1969, 12, 31);
        LocalDateTime ntz = LocalDateTime.parse("2024-01-02T03:04:05.120");
        Instant instant = Instant.parse("2024-01-02T23:59:00Z");
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("z", null);
        m.put("a", 1);
        String paimon = PaimonOracle.render(PaimonOracle.row(PAIMON, 1, true, -1, 2, 3L, 0.1f, -0.0,
                new BigDecimal("-1.5"), new BigDecimal("0"), "s t", new byte[] {0, (byte) 0xab}, date, ntz, instant,
                Arrays.asList(3, null, 1), m, List.of(7, List.of("a", "b"))), PAIMON);
        String expected = "id=1, b=true, ti=-1, si=2, big=3, f=0.1, db=-0.0, dec=-1.50, dec38=0.0000000000, s=s t, "
                + "bin=00ab, d=1969-12-31, ts=2024-01-02T03:04:05.12, tsl=2024-01-02T23:59:00, arr=[3, null, 1], "
                + "m={a=1, z=null}, st={x=7, y=[a, b]}";
        assertEquals(expected, paimon);

        // Spark's default external types: java.sql.Date / java.sql.Timestamp, Scala collections.
        Row legacy = RowFactory.create(1, true, (byte) -1, (short) 2, 3L, 0.1f, -0.0, new BigDecimal("-1.50"),
                new BigDecimal("0E-10"), "s t", new byte[] {0, (byte) 0xab}, java.sql.Date.valueOf(date), ntz,
                java.sql.Timestamp.from(instant), seq(Arrays.asList(3, null, 1)), scalaMap(m),
                RowFactory.create(7, seq(List.of("a", "b"))));
        assertEquals(expected, SparkRows.render(legacy, SPARK));

        // Java 8 time API (spark.sql.datetime.java8API.enabled) and Java collections.
        Row java8 = RowFactory.create(1, true, (byte) -1, (short) 2, 3L, 0.1f, -0.0, new BigDecimal("-1.5"),
                BigDecimal.ZERO, "s t", new byte[] {0, (byte) 0xab}, date, ntz, instant, Arrays.asList(3, null, 1), m,
                RowFactory.create(7, List.of("a", "b")));
        assertEquals(expected, SparkRows.render(java8, SPARK));

        Row nulls = RowFactory.create(new Object[SPARK.size()]);
        assertEquals(PaimonOracle.render(PaimonOracle.row(PAIMON, new Object[PAIMON.getFieldCount()]), PAIMON),
                SparkRows.render(nulls, SPARK));
    }
}
