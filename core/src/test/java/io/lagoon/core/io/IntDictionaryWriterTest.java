package io.lagoon.core.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Random;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/**
 * The faster integer dictionary encoder must write exactly Parquet's bytes: every data page, the
 * dictionary page, the plain pages after a fall-back, and a cleared dictionary's pages, for runs
 * of one value, a few values, and values too many for the dictionary.
 */
class IntDictionaryWriterTest {
  private static final ColumnDescriptor COLUMN = new ColumnDescriptor(new String[] {"i"},
      Types.optional(PrimitiveType.PrimitiveTypeName.INT32).named("i"), 0, 1);

  /** Parquet's writer and Lagoon's for the same properties, fed the same values. */
  private static final class Pair extends WriterPair {
    Pair(ParquetProperties.WriterVersion version, int dictionaryPageSize) {
      super(COLUMN, b -> b.withWriterVersion(version).withDictionaryPageSize(dictionaryPageSize));
      lagoonDictionaryIs(IntDictionaryWriter.class);
    }

    void write(int v) {
      parquet.writeInteger(v);
      lagoon.writeInteger(v);
      assertEquals(parquet.getBufferedSize(), lagoon.getBufferedSize());
    }
  }

  /** Runs of equal values, a few distinct ones, negatives, zero and the extremes among them. */
  private static void run(long seed, ParquetProperties.WriterVersion version, int dictionaryPageSize, int distinct,
                          int values) throws IOException {
    Random r = new Random(seed);
    int[] pool = new int[distinct];
    for (int i = 0; i < distinct; i++) pool[i] = i < 4 ? new int[] {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE}[i] : r.nextInt();
    Pair p = new Pair(version, dictionaryPageSize);
    for (int i = 0; i < values; ) {
      int v = pool[r.nextInt(distinct)];
      for (int run = 1 + (r.nextInt(4) == 0 ? r.nextInt(50) : 0); run > 0 && i < values; run--, i++) {
        p.write(v);
        if (r.nextInt(3000) == 0) p.samePage();
      }
    }
    p.samePage();
    p.sameDictionary();
  }

  @Test
  void writesParquetsBytesForRepeatedValues() throws IOException {
    for (long seed = 1; seed <= 4; seed++) run(seed, ParquetProperties.WriterVersion.PARQUET_1_0, 1 << 20, 1000, 40_000);
    run(5, ParquetProperties.WriterVersion.PARQUET_1_0, 1 << 20, 1, 10_000);
    run(6, ParquetProperties.WriterVersion.PARQUET_2_0, 1 << 20, 300, 20_000);
  }

  @Test
  void fallsBackToPlainWhereParquetDoes() throws IOException {
    // A dictionary page of 4 KB holds a thousand values: with more distinct ones both fall back.
    run(21, ParquetProperties.WriterVersion.PARQUET_1_0, 4096, 5000, 20_000);
    Pair p = new Pair(ParquetProperties.WriterVersion.PARQUET_1_0, 4096);
    for (int i = 0; i < 3000; i++) p.write(i * 7);
    assertTrue(p.lagoon.getEncoding() == Encoding.PLAIN, "fell back: " + p.lagoon.getEncoding());
    p.samePage();
    p.sameDictionary();
  }

  @Test
  void aClearedDictionaryNumbersFromZeroAgain() throws IOException {
    Random r = new Random(31);
    Pair p = new Pair(ParquetProperties.WriterVersion.PARQUET_1_0, 1 << 20);
    for (int round = 0; round < 3; round++) {
      // The last value of one round starts the next: its id must not outlive the clear.
      for (int i = 0; i < 5000; i++) p.write(i == 0 ? 42 : r.nextInt(round * 100 + 20) - 10);
      p.write(42);
      p.samePage();
      DictionaryPage a = p.parquet.toDictPageAndClose();
      DictionaryPage b = p.lagoon.toDictPageAndClose();
      assertArrayEquals(a.getBytes().toByteArray(), b.getBytes().toByteArray());
      p.parquet.resetDictionary();
      p.lagoon.resetDictionary();
    }
  }
}
