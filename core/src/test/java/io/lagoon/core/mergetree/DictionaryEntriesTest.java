package io.lagoon.core.mergetree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.catalog.FileSystemCatalog;
import io.lagoon.core.catalog.Identifier;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.io.DictionaryEntry;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compaction reader's rows name, for each string read from a dictionary page, the entry it
 * was read from, down through the record's key and value views to the Parquet batch; the entry's
 * bytes are the string's. Plain-encoded pages (after a fall-back), nulls and other columns name none.
 */
class DictionaryEntriesTest {
  private static SparkSession spark;
  @TempDir java.nio.file.Path dir;

  @BeforeAll
  static void startSpark() {
    spark = SparkSession.builder().master("local[1]").appName("dictionary-entries-test")
        .config("spark.ui.enabled", "false").getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @Test
  void stringsReadFromADictionaryNameTheirEntry() throws IOException {
    FileSystemCatalog catalog = new FileSystemCatalog(new FileIO(new Configuration()), new Path(dir.resolve("wh").toUri()));
    catalog.createDatabase("db");
    PaimonType string = PaimonType.withLength(TypeRoot.VARCHAR, Integer.MAX_VALUE);
    List<DataField> fields = List.of(
        new DataField(0, "id", PaimonType.of(TypeRoot.INT).notNull()),
        new DataField(1, "v", PaimonType.of(TypeRoot.BIGINT)),
        new DataField(2, "code", string),
        new DataField(3, "unique", string));
    FileStoreTable table = catalog.createTable(new Identifier("db", "t"), fields, 3, List.of(), List.of("id"),
        Map.of("bucket", "1"), null);
    Path bucketDir = table.paths().bucketDir(new byte[0], 0);
    KeyValueFileWriter w = new KeyValueFileWriter(table, bucketDir, 5);
    int rows = 80_000;
    for (int id = 0; id < rows; id++) {
      UTF8String code = id % 11 == 0 ? null : UTF8String.fromString("code-" + (id * 7919 % 301));
      // Each twice, about 1.6 MB of them: the dictionary fills, and the later pages are plain.
      int u = id / 2;
      UTF8String unique = UTF8String.fromString("unique-value-" + u + "-" + Long.toHexString(u * 0x9E3779B97F4A7C15L));
      w.write(new KeyValue(new GenericInternalRow(new Object[] {id}), id, KeyValue.INSERT,
          new GenericInternalRow(new Object[] {id, (long) id, code, unique})));
    }
    DataFileMeta file = w.finish();

    KeyValueFileReader reader = KeyValueFileReader.buildForCompaction(spark, table);
    KeyValueRow row = new KeyValueRow(1, 4);
    DictionaryEntry entry = new DictionaryEntry();
    int codes = 0;
    int namedCodes = 0;
    int namedUnique = 0;
    int read = 0;
    try (CloseableIterator<KeyValue> it = reader.open(bucketDir, file)) {
      while (it.hasNext()) {
        row.replace(it.next());
        read++;
        // _KEY_id, _SEQUENCE_NUMBER, _VALUE_KIND, id, v, code, unique
        for (int i : new int[] {0, 1, 2, 3, 4}) assertFalse(row.dictionaryEntry(i, entry), "field " + i);
        if (!row.isNullAt(5)) {
          codes++;
          if (row.dictionaryEntry(5, entry)) {
            namedCodes++;
            assertArrayEquals(row.getUTF8String(5).getBytes(), entry.bytes(), "code of row " + read);
          }
        }
        if (row.dictionaryEntry(6, entry)) {
          namedUnique++;
          assertArrayEquals(row.getUTF8String(6).getBytes(), entry.bytes(), "unique of row " + read);
        }
      }
    }
    assertEquals(rows, read);
    assertEquals(codes, namedCodes, "every code was read from the dictionary");
    assertTrue(namedUnique > 1000 && namedUnique < rows, "unique strings named until the fall-back: " + namedUnique);
  }
}
