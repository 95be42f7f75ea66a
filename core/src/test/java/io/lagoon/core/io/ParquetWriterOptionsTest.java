package io.lagoon.core.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import io.lagoon.core.write.RollingFileWriter;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table's {@code parquet.*} writer options reach the files Lagoon writes (Parquet's writer
 * builder would ignore them), per column too, and a value Parquet cannot take is refused by name.
 */
class ParquetWriterOptionsTest {
  @TempDir java.nio.file.Path dir;

  private static final List<DataField> FIELDS = List.of(
      new DataField(0, "a", PaimonType.of(TypeRoot.BIGINT)),
      new DataField(1, "b", PaimonType.withLength(TypeRoot.VARCHAR, Integer.MAX_VALUE)));

  private int files;

  /** Column chunk metadata of a file of 1,000 rows with few distinct values, written under {@code options}. */
  private Map<String, ColumnChunkMetaData> write(Map<String, String> options) throws IOException {
    Configuration conf = new Configuration();
    options.forEach(conf::set);
    Path file = new Path(dir.resolve("f" + files++ + ".parquet").toUri());
    FormatWriter w = FormatWriters.open("parquet", conf, file, RollingFileWriter.withFieldIds(FIELDS), FIELDS, "zstd");
    for (int i = 0; i < 1000; i++) {
      w.write(new GenericInternalRow(new Object[] {(long) (i % 10), UTF8String.fromString("v" + i % 7)}));
    }
    w.close();
    Map<String, ColumnChunkMetaData> out = new HashMap<>();
    try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(file, conf))) {
      for (ColumnChunkMetaData c : r.getFooter().getBlocks().get(0).getColumns()) out.put(c.getPath().toDotString(), c);
    }
    return out;
  }

  private static boolean dictionary(ColumnChunkMetaData c) {
    return c.getEncodings().contains(Encoding.PLAIN_DICTIONARY) || c.getEncodings().contains(Encoding.RLE_DICTIONARY);
  }

  @Test
  void dictionaryEncodingFollowsTheOptionsPerColumnToo() throws IOException {
    Map<String, ColumnChunkMetaData> byDefault = write(Map.of());
    assertTrue(dictionary(byDefault.get("a")) && dictionary(byDefault.get("b")), "Parquet's default: dictionaries");
    Map<String, ColumnChunkMetaData> none = write(Map.of("parquet.enable.dictionary", "false"));
    assertFalse(dictionary(none.get("a")) || dictionary(none.get("b")), "parquet.enable.dictionary = false");
    Map<String, ColumnChunkMetaData> oneColumn = write(Map.of("parquet.enable.dictionary#b", "false"));
    assertTrue(dictionary(oneColumn.get("a")));
    assertFalse(dictionary(oneColumn.get("b")), "parquet.enable.dictionary#b = false");
  }

  @Test
  void writerVersionAndParquetBloomFiltersFollowTheOptions() throws IOException {
    assertTrue(write(Map.of()).get("b").getEncodings().contains(Encoding.PLAIN_DICTIONARY), "v1 dictionary pages");
    assertTrue(write(Map.of("parquet.writer.version", "v2")).get("b").getEncodings().contains(Encoding.RLE_DICTIONARY),
        "v2 data pages");
    assertTrue(write(Map.of()).get("b").getBloomFilterOffset() < 0);
    // Parquet leaves out the Bloom filter of a column chunk its dictionary covers whole.
    Map<String, ColumnChunkMetaData> bloom = write(Map.of("parquet.bloom.filter.enabled#b", "true",
        "parquet.enable.dictionary#b", "false"));
    assertTrue(bloom.get("b").getBloomFilterOffset() >= 0, "a Bloom filter on b");
    assertTrue(bloom.get("a").getBloomFilterOffset() < 0, "none on a");
  }

  @Test
  void aValueParquetCannotTakeIsRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ParquetWriterOptions.check(Map.of("parquet.writer.version", "v9")));
    assertTrue(e.getMessage().contains("parquet.writer.version = 'v9'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> ParquetWriterOptions.check(Map.of("parquet.page.row.count.limit", "many")));
    assertTrue(e.getMessage().contains("parquet.page.row.count.limit = 'many' is not a number"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> ParquetWriterOptions.check(Map.of("parquet.bloom.filter.expected.ndv#b", "lots")));
    assertTrue(e.getMessage().contains("parquet.bloom.filter.expected.ndv#b = 'lots'"), e.getMessage());
    ParquetWriterOptions.check(Map.of("parquet.writer.version", "v2", "parquet.enable.dictionary#b", "false",
        "parquet.page.row.count.limit", "5000", "file.format", "parquet"));
    assertEquals(0, files);
  }
}
