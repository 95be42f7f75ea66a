package io.lagoon.it.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Documents (and pins) the Parquet schema real Paimon writes, read with parquet-hadoop: physical
 * types, logical annotations and field ids. A reference for Lagoon's Parquet writer.
 */
@RequiresPaimon131
class PaimonParquetLayoutTest {

    @TempDir
    Path tmp;

    private static final String FIXTURE_1_3_1_PK = String.join("\n",
            "message paimon_schema {",
            "  required int32 _KEY_id = 1073741823;",
            "  required int64 _SEQUENCE_NUMBER = 2147483646;",
            "  required int32 _VALUE_KIND (INTEGER(8,true)) = 2147483645;",
            "  required int32 id = 0;",
            "  optional int64 big = 1;",
            "  optional binary name (STRING) = 2;",
            "  optional double score = 3;",
            "  optional int64 amount (DECIMAL(10,2)) = 4;",
            "  required int32 d (DATE) = 5;",
            "  optional int64 ts (TIMESTAMP(MICROS,false)) = 6;",
            "}", "");

    /** Paimon 0.9 writes no Parquet field ids. */
    private static final String FIXTURE_0_9_PK = FIXTURE_1_3_1_PK.replaceAll(" = \\d+;", ";");

    @Test
    void fixtureDataFiles() throws IOException {
        assertEquals(FIXTURE_1_3_1_PK, firstDataFileSchema(fixtureTable(Fixtures.PAIMON_1_3_1, "pk_dv")).toString());
        assertEquals(FIXTURE_1_3_1_PK, firstDataFileSchema(fixtureTable(Fixtures.PAIMON_1_3_1, "pk_part")).toString());
        assertEquals(FIXTURE_0_9_PK, firstDataFileSchema(fixtureTable(Fixtures.PAIMON_0_9, "pk_dv")).toString());
        assertEquals(FIXTURE_0_9_PK, firstDataFileSchema(fixtureTable(Fixtures.PAIMON_0_9, "pk_part")).toString());
        // Append tables: the value columns only.
        String append131 = FIXTURE_1_3_1_PK.replaceAll("  required \\S+ _\\S+( \\(INTEGER\\(8,true\\)\\))? = \\d+;\n", "");
        assertEquals(append131, firstDataFileSchema(fixtureTable(Fixtures.PAIMON_1_3_1, "append_t")).toString());
        assertEquals(append131.replaceAll(" = \\d+;", ";"),
                firstDataFileSchema(fixtureTable(Fixtures.PAIMON_0_9, "append_t")).toString());
    }

    @Test
    void paimon131WriterLayoutOfEveryType() throws IOException {
        RowType type = RowType.of(new DataType[] {
            DataTypes.TINYINT(), DataTypes.SMALLINT(), DataTypes.FLOAT(), DataTypes.DECIMAL(5, 2),
            DataTypes.DECIMAL(18, 4), DataTypes.DECIMAL(38, 10), DataTypes.CHAR(5), DataTypes.BINARY(4),
            DataTypes.VARBINARY(10), DataTypes.TIMESTAMP(3), DataTypes.TIMESTAMP(6), DataTypes.TIMESTAMP(9),
            DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3), DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6),
            DataTypes.ARRAY(DataTypes.INT()), DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()),
            DataTypes.ROW(DataTypes.FIELD(0, "x", DataTypes.INT()), DataTypes.FIELD(1, "y", DataTypes.STRING()))},
            new String[] {"ti", "si", "f", "dec5", "dec18", "dec38", "ch", "bin", "vbin", "ts3", "ts6", "ts9",
                "tsl3", "tsl6", "arr", "m", "st"});
        Schema.Builder b = Schema.newBuilder();
        type.getFields().forEach(f -> b.column(f.name(), f.type()));
        Path table = PaimonOracle.createTable(tmp.resolve("wh"), "db", "t", b.build());
        LocalDateTime ldt = LocalDateTime.parse("2024-01-02T03:04:05.123456789");
        Instant instant = Instant.parse("2024-01-02T03:04:05.123456789Z");
        PaimonOracle.writeRows(table, List.of(PaimonOracle.row(type, 1, 2, 1.5f, new BigDecimal("1.25"),
                new BigDecimal("1.25"), new BigDecimal("1.25"), "ab", new byte[] {1, 2, 3, 4}, new byte[] {1},
                ldt, ldt, ldt, instant, instant, List.of(1, 2), Map.of("a", 1), List.of(1, "y"))));

        // CHAR is stored unpadded; TIMESTAMP(p) is truncated to p digits.
        assertEquals(List.of("ti=1, si=2, f=1.5, dec5=1.25, dec18=1.2500, dec38=1.2500000000, ch=ab, bin=01020304, "
                + "vbin=01, ts3=2024-01-02T03:04:05.123, ts6=2024-01-02T03:04:05.123456, "
                + "ts9=2024-01-02T03:04:05.123456789, tsl3=2024-01-02T03:04:05.123, tsl6=2024-01-02T03:04:05.123456, "
                + "arr=[1, 2], m={a=1}, st={x=1, y=y}"), PaimonOracle.readRows(table));
        // Nested ids: 536870911 = 2^29-1; array element / map value = base + 1024*id + 1, map key = base - 1024*id - 1.
        assertEquals(String.join("\n",
                "message paimon_schema {",
                "  optional int32 ti (INTEGER(8,true)) = 0;",
                "  optional int32 si (INTEGER(16,true)) = 1;",
                "  optional float f = 2;",
                "  optional int32 dec5 (DECIMAL(5,2)) = 3;",
                "  optional int64 dec18 (DECIMAL(18,4)) = 4;",
                "  optional fixed_len_byte_array(16) dec38 (DECIMAL(38,10)) = 5;",
                "  optional binary ch (STRING) = 6;",
                "  optional binary bin = 7;",
                "  optional binary vbin = 8;",
                "  optional int64 ts3 (TIMESTAMP(MILLIS,false)) = 9;",
                "  optional int64 ts6 (TIMESTAMP(MICROS,false)) = 10;",
                "  optional int96 ts9 = 11;",
                "  optional int64 tsl3 (TIMESTAMP(MILLIS,true)) = 12;",
                "  optional int64 tsl6 (TIMESTAMP(MICROS,true)) = 13;",
                "  optional group arr (LIST) = 14 {",
                "    repeated group list {",
                "      optional int32 element = 536885248;",
                "    }",
                "  }",
                "  optional group m (MAP) = 15 {",
                "    repeated group key_value (MAP_KEY_VALUE) {",
                "      required binary key (STRING) = 536855550;",
                "      optional int32 value = 536886272;",
                "    }",
                "  }",
                "  optional group st = 16 {",
                "    optional int32 x = 17;",
                "    optional binary y (STRING) = 18;",
                "  }",
                "}", ""), firstDataFileSchema(table).toString());
    }

    private static Path fixtureTable(String warehouse, String table) {
        return Fixtures.resource(warehouse).resolve("db.db").resolve(table);
    }

    private static MessageType firstDataFileSchema(Path tableDir) throws IOException {
        Path file;
        try (Stream<Path> walk = Files.walk(tableDir)) {
            file = walk.filter(p -> p.getFileName().toString().endsWith(".parquet")).sorted()
                    .collect(Collectors.toList()).get(0);
        }
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
            return reader.getFooter().getFileMetaData().getSchema();
        }
    }
}
