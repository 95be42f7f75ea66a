package io.lagoon.core.io;

import java.lang.reflect.Field;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.factory.DefaultValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.hadoop.ParquetWriter;

/**
 * Parquet's own choice of encoders for each column, except that a dictionary-encoded string or
 * binary column gets {@link BinaryDictionaryWriter}, a dictionary-encoded 32-bit column
 * {@link IntDictionaryWriter}, and plain-encoded values (numbers without a
 * dictionary, or after a dictionary's fall-back) {@link ArrayPlainValuesWriter}: both write the
 * same bytes faster.
 */
final class LagoonValuesWriters implements ValuesWriterFactory {
  private final DefaultValuesWriterFactory defaults = new DefaultValuesWriterFactory();
  private ParquetProperties properties;

  @Override
  public void initialize(ParquetProperties properties) {
    this.properties = properties;
    defaults.initialize(properties);
  }

  @Override
  public ValuesWriter newValuesWriter(ColumnDescriptor column) {
    ValuesWriter w = defaults.newValuesWriter(column);
    if (w.getClass() == PlainValuesWriter.class) return plain(w);
    if (!(w instanceof FallbackValuesWriter)) return w;
    FallbackValuesWriter<?, ?> f = (FallbackValuesWriter<?, ?>) w;
    ValuesWriter fallBack = f.fallBackWriter.getClass() == PlainValuesWriter.class ? plain(f.fallBackWriter) : f.fallBackWriter;
    Class<?> dictionary = f.initialWriter.getClass();
    boolean binary = dictionary == DictionaryValuesWriter.PlainBinaryDictionaryValuesWriter.class;
    boolean ints = dictionary == DictionaryValuesWriter.PlainIntegerDictionaryValuesWriter.class;
    if (!binary && !ints) return fallBack == f.fallBackWriter ? w : FallbackValuesWriter.of(f.initialWriter, fallBack);
    // Parquet's encodings: the data page's as its writer has it, the dictionary page's by writer version.
    Encoding dataPage = f.initialWriter.getEncoding();
    Encoding dictionaryPage = properties.getWriterVersion() == ParquetProperties.WriterVersion.PARQUET_1_0
        ? Encoding.PLAIN_DICTIONARY : Encoding.PLAIN;
    f.initialWriter.close();
    int size = properties.getDictionaryPageSizeThreshold();
    if (ints) {
      return FallbackValuesWriter.of(new IntDictionaryWriter(size, dataPage, dictionaryPage, properties.getAllocator()),
          fallBack);
    }
    return FallbackValuesWriter.of(new BinaryDictionaryWriter(size, dataPage, dictionaryPage, properties.getAllocator()),
        fallBack);
  }

  /** Parquet's plain writer, closed, replaced by one that writes the same bytes into an array. */
  private ValuesWriter plain(ValuesWriter parquets) {
    parquets.close();
    return new ArrayPlainValuesWriter(properties.getInitialSlabSize());
  }

  /**
   * Has {@code builder}'s writer use these encoders. Parquet's writer builder does not expose its
   * encoding properties, so this reaches them by reflection; where that fails (another Parquet
   * version) the writer keeps Parquet's encoders, which write the same bytes.
   */
  static void install(ParquetWriter.Builder<?, ?> builder) {
    try {
      Field f = ParquetWriter.Builder.class.getDeclaredField("encodingPropsBuilder");
      f.setAccessible(true);
      ((ParquetProperties.Builder) f.get(builder)).withValuesWriterFactory(new LagoonValuesWriters());
    } catch (ReflectiveOperationException | RuntimeException e) {
      // Parquet's own encoders
    }
  }
}
