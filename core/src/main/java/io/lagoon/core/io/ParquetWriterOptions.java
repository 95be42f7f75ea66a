package io.lagoon.core.io;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetWriter;

/**
 * Parquet's writer options (the {@code parquet.*} keys a table's options or the Hadoop
 * configuration carry) applied to a writer builder. Parquet's own output format reads them from
 * the configuration, but its writer builder only keeps the configuration for the file system and
 * the write support, so without this a table's {@code parquet.enable.dictionary},
 * {@code parquet.writer.version} or Bloom filter settings would be ignored. A key that is not set
 * leaves Parquet's default.
 */
public final class ParquetWriterOptions {
  private ParquetWriterOptions() {}

  /**
   * Rejects a table's {@code parquet.*} options that a writer could not take, before anything is
   * written (at CREATE TABLE and ALTER TABLE ... SET TBLPROPERTIES).
   */
  public static void check(Map<String, String> options) {
    Configuration conf = new Configuration(false);
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (e.getKey().startsWith("parquet.")) conf.set(e.getKey(), e.getValue());
    }
    apply(new Unbuilt(), conf);
  }

  /** A builder only for {@link #check}: nothing is built, so its file is never touched. */
  private static final class Unbuilt extends ParquetWriter.Builder<Object, Unbuilt> {
    Unbuilt() {
      super(new org.apache.hadoop.fs.Path("unused"));
    }

    @Override
    protected Unbuilt self() {
      return this;
    }

    @Override
    protected org.apache.parquet.hadoop.api.WriteSupport<Object> getWriteSupport(Configuration conf) {
      throw new UnsupportedOperationException("never built");
    }
  }

  /** @throws IllegalArgumentException naming the option whose value Parquet cannot take */
  static void apply(ParquetWriter.Builder<?, ?> b, Configuration conf) {
    try {
      applyOrThrow(b, conf);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Bad Parquet writer option: " + e.getMessage(), e);
    }
  }

  private static void applyOrThrow(ParquetWriter.Builder<?, ?> b, Configuration conf) {
    String dictionary = conf.get("parquet.enable.dictionary");
    if (dictionary != null) b.withDictionaryEncoding(Boolean.parseBoolean(dictionary.trim()));
    int dictionaryPage = intOption(conf, "parquet.dictionary.page.size");
    if (dictionaryPage > 0) b.withDictionaryPageSize(dictionaryPage);
    String version = conf.get("parquet.writer.version");
    if (version != null) {
      try {
        b.withWriterVersion(ParquetProperties.WriterVersion.fromString(version.trim()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("parquet.writer.version = '" + version + "' (v1 or v2)", e);
      }
    }
    int pageRows = intOption(conf, "parquet.page.row.count.limit");
    if (pageRows > 0) b.withPageRowCountLimit(pageRows);
    String checksum = conf.get("parquet.page.write-checksum.enabled");
    if (checksum != null) b.withPageWriteChecksumEnabled(Boolean.parseBoolean(checksum.trim()));
    String bloom = conf.get("parquet.bloom.filter.enabled");
    if (bloom != null) b.withBloomFilterEnabled(Boolean.parseBoolean(bloom.trim()));
    // Per-column keys (key#column), found in one pass over the configuration.
    for (Map.Entry<String, String> e : conf) {
      String key = e.getKey();
      int hash = key.indexOf('#');
      if (hash < 0 || !key.startsWith("parquet.")) continue;
      String column = key.substring(hash + 1);
      String value = conf.get(key).trim();
      try {
        switch (key.substring(0, hash)) {
          case "parquet.enable.dictionary": b.withDictionaryEncoding(column, Boolean.parseBoolean(value)); break;
          case "parquet.bloom.filter.enabled": b.withBloomFilterEnabled(column, Boolean.parseBoolean(value)); break;
          case "parquet.bloom.filter.expected.ndv": b.withBloomFilterNDV(column, Long.parseLong(value)); break;
          case "parquet.bloom.filter.fpp": b.withBloomFilterFPP(column, Double.parseDouble(value)); break;
          default: break;
        }
      } catch (NumberFormatException bad) {
        throw new IllegalArgumentException(key + " = '" + value + "' is not a number", bad);
      }
    }
    int padding = intOption(conf, "parquet.writer.max-padding");
    if (padding >= 0) b.withMaxPaddingSize(padding);
    int columnIndexTruncate = intOption(conf, "parquet.columnindex.truncate.length");
    if (columnIndexTruncate > 0) b.withColumnIndexTruncateLength(columnIndexTruncate);
    int statisticsTruncate = intOption(conf, "parquet.statistics.truncate.length");
    if (statisticsTruncate > 0) b.withStatisticsTruncateLength(statisticsTruncate);
  }

  /** An integer option, or -1 when it is not set. */
  private static int intOption(Configuration conf, String key) {
    String v = conf.get(key);
    if (v == null) return -1;
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " = '" + v + "' is not a number", e);
    }
  }
}
