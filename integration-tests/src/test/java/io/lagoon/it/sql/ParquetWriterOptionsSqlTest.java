package io.lagoon.it.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;

/**
 * A table's {@code parquet.*} options shape the files its writes make: dictionary encoding on or
 * off, for the table or one column, set at CREATE or later by ALTER. Primary-key files write
 * their never-repeating columns (sequence number, a one-column key) without a dictionary.
 */
class ParquetWriterOptionsSqlTest extends LagoonSparkTest {

  /** Per column of every data file of the table, whether that file's chunks are dictionary-encoded. */
  private static Map<String, List<Boolean>> dictionaries(String table) throws IOException {
    Path dir = warehouse.resolve("opts.db").resolve(table);
    List<Path> files;
    try (Stream<Path> s = Files.walk(dir)) {
      files = s.filter(p -> p.getFileName().toString().startsWith("data-")).sorted().collect(Collectors.toList());
    }
    assertFalse(files.isEmpty());
    Map<String, List<Boolean>> out = new HashMap<>();
    for (Path f : files) {
      try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(
          new org.apache.hadoop.fs.Path(f.toUri()), new Configuration()))) {
        for (ColumnChunkMetaData c : r.getFooter().getBlocks().get(0).getColumns()) {
          boolean dictionary = c.getEncodings().contains(Encoding.PLAIN_DICTIONARY)
              || c.getEncodings().contains(Encoding.RLE_DICTIONARY);
          out.computeIfAbsent(c.getPath().toDotString(), k -> new java.util.ArrayList<>()).add(dictionary);
        }
      }
    }
    return out;
  }

  @Test
  void dictionaryOptionsOfTheTableReachItsFiles() throws IOException {
    sql("CREATE DATABASE IF NOT EXISTS lake.opts");
    sql("CREATE TABLE lake.opts.perColumn (id BIGINT, tag STRING, note STRING) "
        + "TBLPROPERTIES ('parquet.enable.dictionary#note' = 'false')");
    sql("INSERT INTO lake.opts.perColumn SELECT id, concat('t', id % 5), concat('n', id % 3) FROM range(0, 2000)");
    Map<String, List<Boolean>> d = dictionaries("perColumn");
    int before = d.get("tag").size();
    assertEquals(Set.of(true), Set.copyOf(d.get("tag")));
    assertEquals(Set.of(false), Set.copyOf(d.get("note")), "parquet.enable.dictionary#note = false");

    sql("ALTER TABLE lake.opts.perColumn SET TBLPROPERTIES ('parquet.enable.dictionary' = 'false')");
    sql("INSERT INTO lake.opts.perColumn SELECT id, concat('t', id % 5), concat('n', id % 3) FROM range(2000, 4000)");
    d = dictionaries("perColumn");
    assertTrue(d.get("tag").size() > before);
    assertEquals(before, d.get("tag").stream().filter(x -> x).count(), "the files written after ALTER have no dictionary");
    assertEquals(List.of("4000,5,3"), rows("SELECT count(*), count(DISTINCT tag), count(DISTINCT note) "
        + "FROM lake.opts.perColumn"));
  }

  @Test
  void primaryKeyFilesWriteTheirUniqueColumnsPlain() throws IOException {
    sql("CREATE DATABASE IF NOT EXISTS lake.opts");
    sql("CREATE TABLE lake.opts.pk (id BIGINT NOT NULL, tag STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    sql("INSERT INTO lake.opts.pk SELECT id, concat('t', id % 5) FROM range(0, 3000)");
    Map<String, List<Boolean>> d = dictionaries("pk");
    assertEquals(Set.of(false), Set.copyOf(d.get("_SEQUENCE_NUMBER")));
    assertEquals(Set.of(false), Set.copyOf(d.get("_KEY_id")));
    assertEquals(Set.of(false), Set.copyOf(d.get("id")));
    assertEquals(Set.of(true), Set.copyOf(d.get("tag")), "other columns keep Parquet's default");
    assertEquals(List.of("3000,5"), rows("SELECT count(*), count(DISTINCT tag) FROM lake.opts.pk"));
  }
}
