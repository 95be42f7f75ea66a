package io.lagoon.core.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/**
 * The faster string dictionary encoder must write exactly Parquet's bytes: every data page, the
 * dictionary page, and the plain pages after a fall-back, for every form a value can come in.
 */
class BinaryDictionaryWriterTest {
  private static final ColumnDescriptor COLUMN = new ColumnDescriptor(new String[] {"s"},
      Types.optional(PrimitiveType.PrimitiveTypeName.BINARY).named("s"), 0, 1);

  /** Parquet's writer and Lagoon's for the same properties, fed the same values. */
  private static final class Pair extends WriterPair {
    Pair(ParquetProperties.WriterVersion version, int dictionaryPageSize) {
      super(COLUMN, b -> b.withWriterVersion(version).withDictionaryPageSize(dictionaryPageSize));
      lagoonDictionaryIs(BinaryDictionaryWriter.class);
    }

    void write(Binary forParquet, Binary forLagoon) {
      parquet.writeBytes(forParquet);
      lagoon.writeBytes(forLagoon);
    }
  }

  private static List<byte[]> pool(Random r, int n) {
    List<byte[]> out = new ArrayList<>();
    out.add(new byte[0]);
    out.add("é中".getBytes(StandardCharsets.UTF_8));
    // Different values with one polynomial hash: only their bytes tell them apart.
    for (String c : new String[] {"Aa", "BB", "AaAa", "AaBB", "BBAa", "BBBB"}) out.add(c.getBytes(StandardCharsets.UTF_8));
    while (out.size() < n) {
      // Similar values, as real columns have: a shared prefix and a short varying tail.
      String s = (r.nextInt(4) == 0 ? "x" : "customer-") + r.nextInt(n * 4);
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      if (r.nextInt(50) == 0) b = new byte[r.nextInt(300)];
      r.nextBytes(r.nextInt(50) == 0 ? b : new byte[0]);
      out.add(b);
    }
    return out;
  }

  /** The value as Spark's write support hands it over (a reused array) and in Parquet's other forms. */
  private static Binary[] forms(byte[] b, byte[] reused, int form) {
    switch (form) {
      case 0:
        System.arraycopy(b, 0, reused, 0, b.length);
        return new Binary[] {Binary.fromConstantByteArray(b), Binary.fromReusedByteArray(reused, 0, b.length)};
      case 1: {
        byte[] padded = new byte[b.length + 3];
        System.arraycopy(b, 0, padded, 2, b.length);
        return new Binary[] {Binary.fromConstantByteArray(b), Binary.fromConstantByteArray(padded, 2, b.length)};
      }
      case 2:
        return new Binary[] {Binary.fromConstantByteArray(b), Binary.fromConstantByteBuffer(ByteBuffer.wrap(b.clone()))};
      case 3: {
        // A string where it lies in its row: a slice of a reused array, not at its start.
        System.arraycopy(b, 0, reused, 5, b.length);
        return new Binary[] {Binary.fromConstantByteArray(b), Binary.fromReusedByteArray(reused, 5, b.length)};
      }
      case 4: {
        ByteBuffer direct = ByteBuffer.allocateDirect(b.length + 4);
        direct.position(4);
        direct.put(b);
        direct.position(4);
        return new Binary[] {Binary.fromConstantByteArray(b), Binary.fromConstantByteBuffer(direct)};
      }
      default:
        return new Binary[] {Binary.fromConstantByteArray(b), Binary.fromReusedByteArray(b.clone())};
    }
  }

  private static void run(long seed, ParquetProperties.WriterVersion version, int dictionaryPageSize, int distinct,
                          int values) throws IOException {
    Random r = new Random(seed);
    List<byte[]> pool = pool(r, distinct);
    Pair p = new Pair(version, dictionaryPageSize);
    byte[] reused = new byte[520];
    for (int i = 0; i < values; i++) {
      Binary[] v = forms(pool.get(r.nextInt(pool.size())), reused, r.nextInt(6));
      p.write(v[0], v[1]);
      // Writing again into the reused array must not change what was recorded.
      java.util.Arrays.fill(reused, (byte) 7);
      if (r.nextInt(3000) == 0) p.samePage();
    }
    p.samePage();
    p.sameDictionary();
  }

  @Test
  void writesParquetsBytesForManyRepeatedValues() throws IOException {
    for (long seed = 1; seed <= 5; seed++) run(seed, ParquetProperties.WriterVersion.PARQUET_1_0, 1 << 20, 5000, 40_000);
  }

  @Test
  void writesParquetsBytesWithTheSecondWriterVersion() throws IOException {
    run(11, ParquetProperties.WriterVersion.PARQUET_2_0, 1 << 20, 3000, 20_000);
  }

  @Test
  void fallsBackToPlainWhereParquetDoes() throws IOException {
    // A dictionary page of 4 KB fills after a few hundred distinct values: both fall back then.
    run(21, ParquetProperties.WriterVersion.PARQUET_1_0, 4096, 2000, 10_000);
    Pair p = new Pair(ParquetProperties.WriterVersion.PARQUET_1_0, 4096);
    for (int i = 0; i < 2000; i++) p.write(Binary.fromString("value-" + i), Binary.fromString("value-" + i));
    assertTrue(p.lagoon.getEncoding() == org.apache.parquet.column.Encoding.PLAIN, "fell back: " + p.lagoon.getEncoding());
    p.samePage();
    p.sameDictionary();
  }

  @Test
  void valuesWithTheSameHashKeepTheirOwnIds() throws IOException {
    Pair p = new Pair(ParquetProperties.WriterVersion.PARQUET_1_0, 1 << 20);
    // Short ones are told apart in the slot; long ones that share their first bytes and length
    // (prefix-0000000AaAa and prefix-0000000BBBB hash alike) only by the bytes in the arena.
    String[] colliding = {"AaAa", "AaBB", "BBAa", "BBBB", "AaAa", "BBBB", "AaBB", "prefix-0000000AaAa",
        "prefix-0000000BBBB", "prefix-0000000AaBB", "prefix-0000000BBBB", "prefix-0000000AaAa", "prefix-0000000BBAa"};
    for (String c : colliding) p.write(Binary.fromString(c), Binary.fromReusedByteArray(c.getBytes(StandardCharsets.UTF_8)));
    p.samePage();
    p.sameDictionary();
  }

  @Test
  void aClearedDictionaryNumbersFromZeroAgain() throws IOException {
    Random r = new Random(31);
    List<byte[]> pool = pool(r, 800);
    Pair p = new Pair(ParquetProperties.WriterVersion.PARQUET_1_0, 1 << 20);
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 5000; i++) {
        byte[] b = pool.get(r.nextInt(pool.size()));
        p.write(Binary.fromConstantByteArray(b), Binary.fromReusedByteArray(b.clone()));
      }
      p.samePage();
      DictionaryPage a = p.parquet.toDictPageAndClose();
      DictionaryPage b = p.lagoon.toDictPageAndClose();
      assertArrayEquals(a.getBytes().toByteArray(), b.getBytes().toByteArray());
      p.parquet.resetDictionary();
      p.lagoon.resetDictionary();
    }
  }

  /**
   * Values named by an entry of the input dictionary they were read from, as a rewrite names them,
   * give Parquet's bytes too: mixed with values given by their bytes, from several inputs that
   * share values, through a fall-back to plain, an input too large to map, and a cleared dictionary.
   */
  @Test
  void valuesNamedByTheirInputEntryWriteParquetsBytes() throws IOException {
    for (int dictionaryPageSize : new int[] {1 << 20, 16 * 1024}) {
      Random r = new Random(41 + dictionaryPageSize);
      List<byte[]> pool = pool(r, 3000);
      List<List<byte[]>> inputs = new ArrayList<>();
      int size = dictionaryPageSize > 100_000 ? 1200 : 300; // the small dictionary fills with a few inputs' values
      for (int d = 0; d < 3; d++) {
        List<byte[]> entries = new ArrayList<>(pool.subList(d * size / 2, d * size / 2 + size)); // overlapping inputs
        java.util.Collections.shuffle(entries, r);
        inputs.add(entries);
      }
      List<byte[]> large = new ArrayList<>();
      for (long bytes = 0; bytes <= dictionaryPageSize; bytes += large.get(large.size() - 1).length) {
        large.add(("large-" + large.size() + "-").repeat(100).getBytes(StandardCharsets.UTF_8));
      }
      inputs.add(large);
      List<org.apache.parquet.column.Dictionary> dictionaries = new ArrayList<>();
      for (List<byte[]> in : inputs) dictionaries.add(InputDictionaries.of(in));
      List<DictionaryEntry.Memo> memos = new ArrayList<>();
      for (int d = 0; d < inputs.size(); d++) memos.add(new DictionaryEntry.Memo());
      DictionaryEntry entry = new DictionaryEntry();

      Pair p = new Pair(ParquetProperties.WriterVersion.PARQUET_1_0, dictionaryPageSize);
      BinaryDictionaryWriter ours = (BinaryDictionaryWriter) ((FallbackValuesWriter<?, ?>) p.lagoon).initialWriter;
      int named = 0;
      int afterFallBack = 0;
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 20_000; i++) {
          int which = r.nextInt(inputs.size() + 1);
          if (which == inputs.size()) {
            byte[] b = pool.get(r.nextInt(pool.size()));
            p.write(Binary.fromConstantByteArray(b), Binary.fromReusedByteArray(b.clone()));
            continue;
          }
          // The large input mostly stays out, or every small dictionary would fall back.
          if (which == inputs.size() - 1 && r.nextInt(50) != 0) which = 0;
          int e = r.nextInt(inputs.get(which).size());
          byte[] b = inputs.get(which).get(e);
          entry.set(dictionaries.get(which), e, memos.get(which));
          Binary v = ours.entryOf(entry);
          if (which == inputs.size() - 1) assertTrue(v == null, "an input larger than a dictionary is not mapped");
          if (v == null && which < inputs.size() - 1) afterFallBack++;
          if (v != null) {
            named++;
            assertArrayEquals(b, v.getBytes());
          }
          p.write(Binary.fromConstantByteArray(b), v != null ? v : Binary.fromConstantByteArray(b));
          if (r.nextInt(3000) == 0) p.samePage();
        }
        p.samePage();
        p.sameDictionary();
        p.parquet.resetDictionary();
        p.lagoon.resetDictionary();
      }
      boolean small = dictionaryPageSize < 100_000;
      assertTrue(named > (small ? 500 : 10_000), "values went by their entries: " + named + ", dictionary page " + dictionaryPageSize);
      if (small) assertTrue(afterFallBack > 0, "entries are not handed out once the small dictionary fell back");
    }
  }
}
