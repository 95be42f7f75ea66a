package io.lagoon.core.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.util.Random;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/**
 * Plain-encoded numbers must come out as Parquet's own plain writer writes them: the same page
 * bytes, and the same buffered size after every value (the column writer ends pages by it), with
 * the dictionary on and off, through a dictionary's fall-back, over pages of every size.
 */
class ArrayPlainValuesWriterTest {
  private static ColumnDescriptor column(PrimitiveTypeName type) {
    return new ColumnDescriptor(new String[] {"c"}, Types.optional(type).named("c"), 0, 1);
  }

  private interface Value {
    void write(ValuesWriter w, Random r);
  }

  private static Value values(PrimitiveTypeName type, int distinct) {
    switch (type) {
      case INT32: return (w, r) -> w.writeInteger(distinct == 0 ? r.nextInt() : r.nextInt(distinct) - distinct / 2);
      case INT64: return (w, r) -> w.writeLong(distinct == 0 ? r.nextLong() : r.nextInt(distinct) * 1_000_003L - 7);
      case FLOAT: return (w, r) -> w.writeFloat(distinct == 0 ? Float.intBitsToFloat(r.nextInt()) : r.nextInt(distinct) / 3f);
      default: return (w, r) -> w.writeDouble(distinct == 0 ? Double.longBitsToDouble(r.nextLong()) : r.nextInt(distinct) / 7.0);
    }
  }

  private static void run(long seed, PrimitiveTypeName type, boolean dictionary, int dictionaryPageSize, int distinct,
                          int count) throws IOException {
    WriterPair pair = new WriterPair(column(type), b -> b.withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
        .withDictionaryEncoding(dictionary).withDictionaryPageSize(dictionaryPageSize));
    ValuesWriter parquet = pair.parquet;
    ValuesWriter lagoon = pair.lagoon;
    // The path under test: plain values go to the array writer, alone or behind a dictionary.
    ValuesWriter plain = lagoon instanceof FallbackValuesWriter ? ((FallbackValuesWriter<?, ?>) lagoon).fallBackWriter : lagoon;
    assertSame(ArrayPlainValuesWriter.class, plain.getClass(), type + " dictionary " + dictionary);
    Value v = values(type, distinct);
    Random a = new Random(seed);
    Random b = new Random(seed);
    Random pages = new Random(seed + 1);
    int page = 0;
    for (int i = 0; i < count; i++) {
      v.write(parquet, a);
      v.write(lagoon, b);
      assertEquals(parquet.getBufferedSize(), lagoon.getBufferedSize(), "buffered size after value " + i);
      // Pages of a few values up to many thousands: a short page after a long one too.
      if (pages.nextInt(pages.nextBoolean() ? 20 : 20_000) == 0) pair.samePage(type + " page " + page++);
    }
    pair.samePage(type + " last page");
    pair.sameDictionary();
  }

  @Test
  void numbersWithoutADictionaryWriteParquetsPages() throws IOException {
    long seed = 1;
    for (PrimitiveTypeName t : new PrimitiveTypeName[] {PrimitiveTypeName.INT32, PrimitiveTypeName.INT64,
        PrimitiveTypeName.FLOAT, PrimitiveTypeName.DOUBLE}) {
      run(seed++, t, false, 1 << 20, 0, 60_000);
      run(seed++, t, false, 1 << 20, 100, 30_000);
    }
  }

  @Test
  void numbersFallingBackFromADictionaryWriteParquetsPages() throws IOException {
    long seed = 11;
    for (PrimitiveTypeName t : new PrimitiveTypeName[] {PrimitiveTypeName.INT32, PrimitiveTypeName.INT64,
        PrimitiveTypeName.FLOAT, PrimitiveTypeName.DOUBLE}) {
      // Unique values fill a small dictionary page and fall back; few distinct ones keep it.
      run(seed++, t, true, 8 * 1024, 0, 40_000);
      run(seed++, t, true, 8 * 1024, 50, 40_000);
    }
  }

  @Test
  void bytesAndSingleBytesAsParquetWritesThem() throws IOException {
    ValuesWriter parquet = new org.apache.parquet.column.values.plain.PlainValuesWriter(64, 1 << 20,
        new org.apache.parquet.bytes.HeapByteBufferAllocator());
    ValuesWriter lagoon = new ArrayPlainValuesWriter(64);
    WriterPair pair = new WriterPair(parquet, lagoon);
    Random r = new Random(5);
    for (int page = 0; page < 4; page++) {
      for (int i = 0; i < 3000; i++) {
        byte[] bytes = new byte[r.nextInt(r.nextInt(30) == 0 ? 2000 : 12)];
        r.nextBytes(bytes);
        org.apache.parquet.io.api.Binary[] forms = {
            org.apache.parquet.io.api.Binary.fromConstantByteArray(bytes),
            org.apache.parquet.io.api.Binary.fromReusedByteArray(pad(bytes), 3, bytes.length),
            org.apache.parquet.io.api.Binary.fromConstantByteBuffer(direct(bytes))};
        org.apache.parquet.io.api.Binary v = forms[r.nextInt(forms.length)];
        parquet.writeBytes(v);
        lagoon.writeBytes(v);
        int one = r.nextInt(256);
        parquet.writeByte(one);
        lagoon.writeByte(one);
        assertEquals(parquet.getBufferedSize(), lagoon.getBufferedSize());
      }
      pair.samePage("page " + page);
    }
  }

  private static byte[] pad(byte[] b) {
    byte[] out = new byte[b.length + 5];
    System.arraycopy(b, 0, out, 3, b.length);
    return out;
  }

  private static java.nio.ByteBuffer direct(byte[] b) {
    java.nio.ByteBuffer d = java.nio.ByteBuffer.allocateDirect(b.length + 2);
    d.position(2);
    d.put(b);
    d.position(2);
    return d;
  }
}
