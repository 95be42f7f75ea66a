package io.lagoon.core.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.util.function.UnaryOperator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.factory.DefaultValuesWriterFactory;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;

/**
 * Parquet's values writer and Lagoon's ({@link LagoonValuesWriters}) for one column and the same
 * properties, to be fed the same values and compared page by page: Lagoon's encoders must write
 * exactly Parquet's bytes.
 */
class WriterPair {
  final ValuesWriter parquet;
  final ValuesWriter lagoon;

  WriterPair(ColumnDescriptor column, UnaryOperator<ParquetProperties.Builder> settings) {
    parquet = settings.apply(ParquetProperties.builder()).withValuesWriterFactory(new DefaultValuesWriterFactory())
        .build().newValuesWriter(column);
    lagoon = settings.apply(ParquetProperties.builder()).withValuesWriterFactory(new LagoonValuesWriters())
        .build().newValuesWriter(column);
  }

  WriterPair(ValuesWriter parquet, ValuesWriter lagoon) {
    this.parquet = parquet;
    this.lagoon = lagoon;
  }

  /** Checks that Lagoon's writer starts with the given dictionary encoder and Parquet's does not. */
  void lagoonDictionaryIs(Class<?> encoder) {
    assertSame(encoder, ((FallbackValuesWriter<?, ?>) lagoon).initialWriter.getClass());
    assertNotSame(encoder, ((FallbackValuesWriter<?, ?>) parquet).initialWriter.getClass());
  }

  /** Ends a page as a column writer does, and checks both wrote the same. */
  void samePage(String what) throws IOException {
    assertEquals(parquet.getEncoding(), lagoon.getEncoding(), what);
    assertArrayEquals(parquet.getBytes().toByteArray(), lagoon.getBytes().toByteArray(), what);
    parquet.reset();
    lagoon.reset();
    assertEquals(parquet.getBufferedSize(), lagoon.getBufferedSize(), what + " after reset");
  }

  void samePage() throws IOException {
    samePage("page");
  }

  /** Closes both dictionaries and checks their pages are the same (or both absent). */
  void sameDictionary() throws IOException {
    DictionaryPage a = parquet.toDictPageAndClose();
    DictionaryPage b = lagoon.toDictPageAndClose();
    if (a == null || b == null) {
      assertEquals(a, b);
      return;
    }
    assertEquals(a.getDictionarySize(), b.getDictionarySize());
    assertEquals(a.getEncoding(), b.getEncoding());
    assertArrayEquals(a.getBytes().toByteArray(), b.getBytes().toByteArray());
  }
}
