package io.lagoon.core.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import io.lagoon.core.write.RollingFileWriter;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Timestamps land in Parquet as Paimon stores them for their precision, nested ones too. */
class ParquetTimestampLayoutTest {
  @TempDir java.nio.file.Path dir;

  private static final List<DataField> FIELDS = List.of(
      new DataField(0, "id", PaimonType.of(TypeRoot.INT)),
      new DataField(1, "ts0", PaimonType.timestamp(0, false)),
      new DataField(2, "ts3", PaimonType.timestamp(3, false)),
      new DataField(3, "ts6", PaimonType.timestamp(6, false)),
      new DataField(4, "ts9", PaimonType.timestamp(9, false).notNull()),
      new DataField(5, "l3", PaimonType.timestamp(3, true)),
      new DataField(6, "l6", PaimonType.timestamp(6, true)),
      new DataField(7, "l9", PaimonType.timestamp(9, true)),
      new DataField(8, "arr", PaimonType.array(PaimonType.timestamp(3, false))),
      new DataField(9, "m", PaimonType.map(PaimonType.of(TypeRoot.INT).notNull(), PaimonType.timestamp(9, true))),
      new DataField(10, "st", PaimonType.row(List.of(
          new DataField(11, "a", PaimonType.timestamp(3, true)), new DataField(12, "b", PaimonType.of(TypeRoot.INT))))));

  @Test
  void schemaAndStoredValues() throws IOException {
    Path file = new Path(dir.resolve("f.parquet").toUri());
    long t = 1_704_164_645_123_456L; // 2024-01-02T03:04:05.123456
    long before = -1_500L;          // 1969-12-31T23:59:59.998500
    try (FormatWriter w = FormatWriters.open("parquet", new Configuration(), file,
        RollingFileWriter.withFieldIds(FIELDS), FIELDS, "zstd")) {
      w.write(new GenericInternalRow(new Object[] {1, t, t, t, t, t, t, t,
          new GenericArrayData(new Object[] {t, null, before}),
          ArrayBasedMapData.apply(new Object[] {7}, new Object[] {before}),
          new GenericInternalRow(new Object[] {before, 2})}));
    }

    try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(file, new Configuration()))) {
      assertEquals(String.join("\n",
          "message spark_schema {",
          "  optional int32 id = 0;",
          "  optional int64 ts0 (TIMESTAMP(MILLIS,false)) = 1;",
          "  optional int64 ts3 (TIMESTAMP(MILLIS,false)) = 2;",
          "  optional int64 ts6 (TIMESTAMP(MICROS,false)) = 3;",
          "  required int96 ts9 = 4;",
          "  optional int64 l3 (TIMESTAMP(MILLIS,true)) = 5;",
          "  optional int64 l6 (TIMESTAMP(MICROS,true)) = 6;",
          "  optional int96 l9 = 7;",
          "  optional group arr (LIST) = 8 {",
          "    repeated group list {",
          "      optional int64 element (TIMESTAMP(MILLIS,false));",
          "    }",
          "  }",
          "  optional group m (MAP) = 9 {",
          "    repeated group key_value {",
          "      required int32 key;",
          "      optional int96 value;",
          "    }",
          "  }",
          "  optional group st = 10 {",
          "    optional int64 a (TIMESTAMP(MILLIS,true));",
          "    optional int32 b;",
          "  }",
          "}", ""), r.getFooter().getFileMetaData().getSchema().toString());
    }

    try (ParquetReader<Group> r = ParquetReader.builder(new GroupReadSupport(), file).build()) {
      Group g = r.read();
      assertEquals(1_704_164_645_123L, g.getLong("ts0", 0));
      assertEquals(1_704_164_645_123L, g.getLong("ts3", 0));
      assertEquals(t, g.getLong("ts6", 0));
      assertEquals(t, int96Micros(g.getInt96("ts9", 0).getBytes()));
      assertEquals(1_704_164_645_123L, g.getLong("l3", 0));
      assertEquals(t, g.getLong("l6", 0));
      assertEquals(t, int96Micros(g.getInt96("l9", 0).getBytes()));
      Group list = g.getGroup("arr", 0);
      assertEquals(3, list.getFieldRepetitionCount("list"));
      assertEquals(1_704_164_645_123L, list.getGroup("list", 0).getLong("element", 0));
      assertEquals(0, list.getGroup("list", 1).getFieldRepetitionCount("element"));
      // Floor, not truncation toward zero: 1.5 ms before the epoch is millisecond -2.
      assertEquals(-2L, list.getGroup("list", 2).getLong("element", 0));
      byte[] v = g.getGroup("m", 0).getGroup("key_value", 0).getInt96("value", 0).getBytes();
      assertEquals(before, int96Micros(v));
      assertEquals(2_440_587, julianDay(v));
      assertEquals(-2L, g.getGroup("st", 0).getLong("a", 0));
    }
  }

  private static long nanosOfDay(byte[] b) {
    long n = 0;
    for (int i = 7; i >= 0; i--) n = (n << 8) | (b[i] & 0xFF);
    return n;
  }

  private static int julianDay(byte[] b) {
    int d = 0;
    for (int i = 11; i >= 8; i--) d = (d << 8) | (b[i] & 0xFF);
    return d;
  }

  private static long int96Micros(byte[] b) {
    return (julianDay(b) - 2_440_588L) * 86_400_000_000L + nanosOfDay(b) / 1000;
  }

  /** Only files with a millisecond or INT96 timestamp go through the converting consumer. */
  @Test
  void onlyMillisAndInt96TimestampsNeedConverting() {
    org.apache.parquet.schema.MessageType micros = org.apache.parquet.schema.MessageTypeParser.parseMessageType(
        "message m { optional int64 ts (TIMESTAMP(MICROS,false)); optional binary s (STRING);"
            + " optional group st { optional int64 t (TIMESTAMP(MICROS,true)); } }");
    org.junit.jupiter.api.Assertions.assertFalse(TimestampRecordConsumer.converts(micros));
    org.apache.parquet.schema.MessageType nestedMillis = org.apache.parquet.schema.MessageTypeParser.parseMessageType(
        "message m { optional int32 id; optional group st { optional int64 t (TIMESTAMP(MILLIS,true)); } }");
    org.junit.jupiter.api.Assertions.assertTrue(TimestampRecordConsumer.converts(nestedMillis));
    org.apache.parquet.schema.MessageType int96 = org.apache.parquet.schema.MessageTypeParser.parseMessageType(
        "message m { optional int96 ts; }");
    org.junit.jupiter.api.Assertions.assertTrue(TimestampRecordConsumer.converts(int96));
  }
}
