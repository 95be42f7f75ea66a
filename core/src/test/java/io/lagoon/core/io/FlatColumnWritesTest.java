package io.lagoon.core.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import io.lagoon.core.write.RollingFileWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows written straight into Parquet's column writers make the very file Spark's write support
 * makes through the record consumer: same bytes, for every flat type, nulls, required columns,
 * timestamps of each stored unit, decimals of each width, strings inside unsafe rows, many pages
 * and row groups, dictionaries and their fall-back.
 */
class FlatColumnWritesTest {
  @TempDir java.nio.file.Path dir;

  private static final PaimonType STRING = PaimonType.withLength(TypeRoot.VARCHAR, Integer.MAX_VALUE);

  private static final List<DataField> FLAT = List.of(
      new DataField(0, "b", PaimonType.of(TypeRoot.BOOLEAN)),
      new DataField(1, "t", PaimonType.of(TypeRoot.TINYINT)),
      new DataField(2, "s", PaimonType.of(TypeRoot.SMALLINT)),
      new DataField(3, "i", PaimonType.of(TypeRoot.INT)),
      new DataField(4, "d", PaimonType.of(TypeRoot.DATE)),
      new DataField(5, "l", PaimonType.of(TypeRoot.BIGINT).notNull()),
      new DataField(6, "str", STRING),
      new DataField(7, "few", STRING.notNull()),
      new DataField(8, "bin", PaimonType.withLength(TypeRoot.VARBINARY, Integer.MAX_VALUE)),
      new DataField(9, "flt", PaimonType.of(TypeRoot.FLOAT)),
      new DataField(10, "dbl", PaimonType.of(TypeRoot.DOUBLE)),
      new DataField(11, "dec5", PaimonType.decimal(5, 2)),
      new DataField(12, "dec15", PaimonType.decimal(15, 3)),
      new DataField(13, "dec30", PaimonType.decimal(30, 4)),
      new DataField(14, "ts3", PaimonType.timestamp(3, false)),
      new DataField(15, "ts6", PaimonType.timestamp(6, false)),
      new DataField(16, "ts9", PaimonType.timestamp(9, false)),
      new DataField(17, "ltz3", PaimonType.timestamp(3, true)),
      new DataField(18, "ltz6", PaimonType.timestamp(6, true)),
      new DataField(19, "ltz9", PaimonType.timestamp(9, true)),
      new DataField(20, "nulls", STRING));

  private static Object value(int column, Random rnd) {
    if (column == 20 || (column != 5 && column != 7 && rnd.nextInt(6) == 0)) return null;
    switch (column) {
      case 0: return rnd.nextBoolean();
      case 1: return (byte) rnd.nextInt(256);
      case 2: return (short) rnd.nextInt(65536);
      case 3: case 4: return rnd.nextInt();
      case 5: return rnd.nextLong();
      case 6: return rnd.nextInt(50) == 0 ? UTF8String.fromString("\u00e9\u4e2d\ud83d\ude00".repeat(rnd.nextInt(9)))
          : UTF8String.fromString(Long.toString(rnd.nextLong(), 36));
      case 7: return UTF8String.fromString("c-" + rnd.nextInt(300));
      case 8: {
        byte[] b = new byte[rnd.nextInt(20)];
        rnd.nextBytes(b);
        return b;
      }
      case 9: {
        float[] special = {Float.NaN, -0.0f, 0.0f, Float.NEGATIVE_INFINITY};
        return rnd.nextInt(5) == 0 ? special[rnd.nextInt(special.length)] : rnd.nextFloat() - 0.5f;
      }
      case 10: {
        double[] special = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY};
        return rnd.nextInt(5) == 0 ? special[rnd.nextInt(special.length)] : rnd.nextGaussian();
      }
      case 11: return Decimal.apply(rnd.nextInt(199_999) - 99_999, 5, 2);
      case 12: return Decimal.apply(rnd.nextLong() % 1_000_000_000_000_000L, 15, 3);
      case 13: {
        // Both signs and every byte length up to the column's 13, so sign extension is exercised.
        BigInteger unscaled = new BigInteger(1 + rnd.nextInt(99), rnd);
        if (rnd.nextBoolean()) unscaled = unscaled.negate();
        return Decimal.apply(new BigDecimal(unscaled, 4), 30, 4);
      }
      default: {
        long micros = rnd.nextLong() / 100_000;
        return column % 3 == 2 ? (micros / 1000) * 1000 : micros; // ts3, ltz3: whole millis, negatives included
      }
    }
  }

  private static final class Written {
    final byte[] bytes;
    final boolean direct;

    Written(byte[] bytes, boolean direct) {
      this.bytes = bytes;
      this.direct = direct;
    }
  }

  private Written write(String name, List<DataField> fields, List<InternalRow> rows, boolean direct, Configuration conf)
      throws IOException {
    Path file = new Path(dir.resolve(name).toUri());
    StructType schema = RollingFileWriter.withFieldIds(fields);
    ParquetFormatWriter w = new ParquetFormatWriter(conf, file, schema, fields, "zstd", direct);
    for (InternalRow r : rows) w.write(r);
    boolean wroteDirectly = w.writesDirectly();
    w.close();
    return new Written(Files.readAllBytes(dir.resolve(name)), wroteDirectly);
  }

  private static List<InternalRow> rows(List<DataField> fields, int count, long seed, boolean unsafe) {
    Random rnd = new Random(seed);
    StructType schema = RollingFileWriter.withFieldIds(fields);
    UnsafeProjection toUnsafe = UnsafeProjection.create(schema);
    List<InternalRow> out = new ArrayList<>();
    for (int r = 0; r < count; r++) {
      Object[] values = new Object[fields.size()];
      for (int c = 0; c < values.length; c++) values[c] = fields.size() == FLAT.size() ? value(c, rnd) : nested(c, rnd);
      InternalRow row = new GenericInternalRow(values);
      out.add(unsafe ? toUnsafe.apply(row).copy() : row);
    }
    return out;
  }

  @Test
  void directWritesMakeTheSameFileAsSparksWriteSupport() throws IOException {
    Configuration conf = new Configuration();
    conf.setLong("parquet.block.size", 256 * 1024); // several row groups: each has a new consumer and columns
    conf.setInt("parquet.page.size", 8 * 1024);
    conf.setInt("parquet.dictionary.page.size", 4 * 1024); // the unique strings fall back to plain
    for (String version : new String[] {"v1", "v2"}) {
      conf.set("parquet.writer.version", version); // v2 pages end at record boundaries the column store sees
      for (boolean unsafe : new boolean[] {false, true}) {
        sameFiles(conf, version + "-" + unsafe, rows(FLAT, 30_000, unsafe ? 3 : 4, unsafe));
      }
    }
  }

  private void sameFiles(Configuration conf, String name, List<InternalRow> rows) throws IOException {
    Written spark = write("spark-" + name + ".parquet", FLAT, rows, false, conf);
    Written direct = write("direct-" + name + ".parquet", FLAT, rows, true, conf);
    assertFalse(spark.direct);
    assertTrue(direct.direct, "a flat schema is written directly");
    assertTrue(spark.bytes.length > 256 * 1024, "several row groups: " + spark.bytes.length);
    assertEquals(spark.bytes.length, direct.bytes.length, "file length, " + name);
    assertArrayEquals(spark.bytes, direct.bytes, "file bytes, " + name);
  }

  @Test
  void oneRowAndNoRowsToo() throws IOException {
    Configuration conf = new Configuration();
    for (int count : new int[] {0, 1}) {
      List<InternalRow> rows = rows(FLAT, count, 9, true);
      assertArrayEquals(write("s" + count + ".parquet", FLAT, rows, false, conf).bytes,
          write("d" + count + ".parquet", FLAT, rows, true, conf).bytes, count + " rows");
    }
  }

  private static final List<DataField> NESTED = List.of(
      new DataField(0, "id", PaimonType.of(TypeRoot.BIGINT)),
      new DataField(1, "arr", PaimonType.array(PaimonType.of(TypeRoot.INT))));

  private static Object nested(int column, Random rnd) {
    return column == 0 ? (Object) rnd.nextLong() : new GenericArrayData(new Object[] {rnd.nextInt(), null});
  }

  @Test
  void aNestedSchemaKeepsSparksPath() throws IOException {
    List<InternalRow> rows = rows(NESTED, 100, 1, false);
    Written direct = write("nested.parquet", NESTED, rows, true, new Configuration());
    assertFalse(direct.direct, "a list column goes through Spark's record calls");
    assertArrayEquals(write("nested-spark.parquet", NESTED, rows, false, new Configuration()).bytes, direct.bytes);
  }

  /** A row that says which input dictionary entry each of its strings was read from, as a rewrite's rows do. */
  private static final class EntryRow extends GenericInternalRow implements DictionaryEntry.Source {
    private final org.apache.parquet.column.Dictionary[] dictionaries;
    private final int[] ids;
    private final int[] asked;
    /** One memo per input dictionary, as its reader keeps it. */
    private static final java.util.Map<org.apache.parquet.column.Dictionary, DictionaryEntry.Memo> memos =
        new java.util.IdentityHashMap<>();

    EntryRow(Object[] values, org.apache.parquet.column.Dictionary[] dictionaries, int[] ids, int[] asked) {
      super(values);
      this.dictionaries = dictionaries;
      this.ids = ids;
      this.asked = asked;
    }

    @Override
    public boolean dictionaryEntry(int i, DictionaryEntry into) {
      if (dictionaries[i] == null) return false;
      asked[0]++;
      into.set(dictionaries[i], ids[i], memos.computeIfAbsent(dictionaries[i], d -> new DictionaryEntry.Memo()));
      return true;
    }
  }

  /**
   * Strings named by their input dictionary entry make the file Spark's path makes from the same
   * strings, in every page, dictionary, statistic and fall-back: the short codes stay dictionary
   * encoded, the long unique strings fall back to plain, and some strings come without an entry.
   */
  @Test
  void stringsNamedByTheirInputEntryMakeTheSameFile() throws IOException {
    Random rnd = new Random(17);
    // Inputs as the files of a compaction hold them: overlapping sets of codes, in their own orders.
    List<List<byte[]>> codes = new ArrayList<>();
    List<List<byte[]>> unique = new ArrayList<>();
    List<org.apache.parquet.column.Dictionary> codeDictionaries = new ArrayList<>();
    List<org.apache.parquet.column.Dictionary> uniqueDictionaries = new ArrayList<>();
    for (int d = 0; d < 4; d++) {
      List<byte[]> c = new ArrayList<>();
      for (int k = d * 60; k < d * 60 + 150; k++) c.add(("c-" + k).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      java.util.Collections.shuffle(c, rnd);
      codes.add(c);
      codeDictionaries.add(InputDictionaries.of(c));
      List<byte[]> u = new ArrayList<>();
      for (int k = 0; k < 400; k++) u.add(Long.toString(rnd.nextLong(), 36).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      unique.add(u);
      uniqueDictionaries.add(InputDictionaries.of(u));
    }
    Configuration conf = new Configuration();
    conf.setLong("parquet.block.size", 256 * 1024);
    conf.setInt("parquet.page.size", 8 * 1024);
    conf.setInt("parquet.dictionary.page.size", 4 * 1024);
    int[] asked = new int[1];
    List<InternalRow> rows = new ArrayList<>();
    for (InternalRow plain : rows(FLAT, 30_000, 5, false)) {
      Object[] values = ((GenericInternalRow) plain).values().clone();
      org.apache.parquet.column.Dictionary[] dictionaries = new org.apache.parquet.column.Dictionary[values.length];
      int[] ids = new int[values.length];
      int d = rnd.nextInt(codes.size());
      if (rnd.nextInt(10) != 0) { // some rows come from elsewhere (a merged row), with strings only
        ids[7] = rnd.nextInt(codes.get(d).size());
        dictionaries[7] = codeDictionaries.get(d);
        values[7] = UTF8String.fromBytes(codes.get(d).get(ids[7]));
        if (values[6] != null) {
          ids[6] = rnd.nextInt(unique.get(d).size());
          dictionaries[6] = uniqueDictionaries.get(d);
          values[6] = UTF8String.fromBytes(unique.get(d).get(ids[6]));
        }
      }
      rows.add(new EntryRow(values, dictionaries, ids, asked));
    }
    for (String version : new String[] {"v1", "v2"}) {
      conf.set("parquet.writer.version", version);
      asked[0] = 0;
      sameFiles(conf, "entries-" + version, rows);
      assertTrue(asked[0] > 30_000, "the direct path asked for the entries: " + asked[0]);
    }
  }
}
