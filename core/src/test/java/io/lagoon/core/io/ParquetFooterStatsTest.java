package io.lagoon.core.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.manifest.SimpleStats;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import io.lagoon.core.write.RollingFileWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stats read from a Parquet footer after close are exactly the stats collected row by row: same
 * serialized min and max rows, same null counts, over files of many row groups.
 */
class ParquetFooterStatsTest {
  @TempDir java.nio.file.Path dir;

  private static final List<DataField> FIELDS = List.of(
      new DataField(0, "b", PaimonType.of(TypeRoot.BOOLEAN)),
      new DataField(1, "t", PaimonType.of(TypeRoot.TINYINT)),
      new DataField(2, "s", PaimonType.of(TypeRoot.SMALLINT)),
      new DataField(3, "i", PaimonType.of(TypeRoot.INT)),
      new DataField(4, "d", PaimonType.of(TypeRoot.DATE)),
      new DataField(5, "l", PaimonType.of(TypeRoot.BIGINT)),
      new DataField(6, "str", PaimonType.withLength(TypeRoot.VARCHAR, Integer.MAX_VALUE)),
      new DataField(7, "ts6", PaimonType.timestamp(6, false)),
      new DataField(8, "ltz6", PaimonType.timestamp(6, true)),
      new DataField(9, "ts3", PaimonType.timestamp(3, false)),
      new DataField(10, "dbl", PaimonType.of(TypeRoot.DOUBLE)),
      new DataField(11, "dec", PaimonType.decimal(10, 2)),
      new DataField(12, "arr", PaimonType.array(PaimonType.of(TypeRoot.INT))),
      new DataField(13, "nulls", PaimonType.withLength(TypeRoot.VARCHAR, Integer.MAX_VALUE)),
      new DataField(14, "late", PaimonType.of(TypeRoot.BIGINT)),
      new DataField(15, "flt", PaimonType.of(TypeRoot.FLOAT)));
  /** The columns a Parquet footer does not cover: ts3 (stored as millis), dec and arr. */
  private static final int COLLECTED_PER_ROW = 3;

  private static Object value(int column, Random rnd, int row, int rows) {
    if (column == 13) return null; // null in every row: no range at all
    if (column == 14) return row < rows - 10 ? null : (Object) (long) rnd.nextInt(); // values in the last row group only
    if (rnd.nextInt(7) == 0) return null;
    switch (column) {
      case 0: return rnd.nextBoolean();
      case 1: return (byte) rnd.nextInt(256);
      case 2: return (short) rnd.nextInt(65536);
      case 3: case 4: return rnd.nextInt();
      case 5: case 7: case 8: return rnd.nextLong() / 1000;
      case 6: {
        switch (rnd.nextInt(5)) {
          case 0: return UTF8String.fromString("\u00e9\u4e2d" + rnd.nextInt(1000) + "\ud83d\ude00".repeat(rnd.nextInt(12)));
          case 1: return UTF8String.fromString("x".repeat(4100 + rnd.nextInt(10))); // over Parquet's 4 KiB stats cap
          default: return UTF8String.fromString(Integer.toString(rnd.nextInt(1_000_000), 36).repeat(1 + rnd.nextInt(6)));
        }
      }
      case 9: return (rnd.nextLong() / 1_000_000) * 1000;
      case 10: {
        double[] special = {Double.NaN, -0.0, 0.0};
        return rnd.nextInt(5) == 0 ? special[rnd.nextInt(special.length)] : rnd.nextGaussian();
      }
      case 11: return Decimal.apply(rnd.nextInt(2_000_000) - 1_000_000, 10, 2);
      case 15: {
        float[] special = {Float.NaN, -0.0f, 0.0f, Float.NEGATIVE_INFINITY};
        return rnd.nextInt(5) == 0 ? special[rnd.nextInt(special.length)] : rnd.nextFloat() - 0.5f;
      }
      case 12: return new GenericArrayData(new Object[] {rnd.nextInt(), null});
      default: throw new IllegalArgumentException("column " + column);
    }
  }

  @Test
  void footerStatsEqualPerRowStats() throws IOException {
    List<PaimonType> types = new ArrayList<>();
    for (DataField f : FIELDS) types.add(f.type());
    Configuration conf = new Configuration();
    conf.setLong("parquet.block.size", 64 * 1024); // many row groups, each with its own chunk stats
    Random rnd = new Random(5);
    for (int round = 0; round < 4; round++) {
      Path file = new Path(dir.resolve("f" + round + ".parquet").toUri());
      FormatWriter w = FormatWriters.open("parquet", conf, file, RollingFileWriter.withFieldIds(FIELDS), FIELDS, "zstd");
      StatsCollector fromFooter = new StatsCollector(types, w, 0);
      StatsCollector perRow = new StatsCollector(types);
      assertEquals(COLLECTED_PER_ROW, fromFooter.collectedPerRow());
      int rows = round == 0 ? 1 : 20_000;
      for (int r = 0; r < rows; r++) {
        Object[] values = new Object[FIELDS.size()];
        for (int c = 0; c < values.length; c++) values[c] = value(c, rnd, r, rows);
        InternalRow row = new GenericInternalRow(values);
        w.write(row);
        fromFooter.update(row);
        perRow.update(row);
      }
      w.close();
      if (rows > 1) {
        try (ParquetFileReader f = ParquetFileReader.open(HadoopInputFile.fromPath(file, conf))) {
          assertTrue(f.getRowGroups().size() > 3, "row groups: " + f.getRowGroups().size());
        }
      }
      SimpleStats expected = perRow.toSimpleStats();
      SimpleStats actual = fromFooter.toSimpleStats();
      assertArrayEquals(expected.nullCounts(), actual.nullCounts(), "null counts, round " + round);
      assertEquals(java.util.Arrays.asList(perRow.mins()), java.util.Arrays.asList(fromFooter.mins()), "mins, round " + round);
      assertEquals(java.util.Arrays.asList(perRow.maxs()), java.util.Arrays.asList(fromFooter.maxs()), "maxs, round " + round);
      assertArrayEquals(expected.minValues(), actual.minValues(), "serialized mins, round " + round);
      assertArrayEquals(expected.maxValues(), actual.maxValues(), "serialized maxs, round " + round);
    }
  }

  @Test
  void orcCollectsEveryColumnPerRow() throws IOException {
    List<PaimonType> types = new ArrayList<>();
    for (DataField f : FIELDS) types.add(f.type());
    Path file = new Path(dir.resolve("f.orc").toUri());
    FormatWriter w = FormatWriters.open("orc", new Configuration(), file, RollingFileWriter.withFieldIds(FIELDS), FIELDS,
        "zstd");
    assertEquals(FIELDS.size(), new StatsCollector(types, w, 0).collectedPerRow());
    w.close();
  }
}
