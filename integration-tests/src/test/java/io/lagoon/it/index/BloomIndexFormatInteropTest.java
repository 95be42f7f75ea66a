package io.lagoon.it.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.index.BloomFilterIndex;
import io.lagoon.index.FileIndexFile;
import io.lagoon.index.ValueHashes;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.fileindex.FileIndexFormat;
import org.apache.paimon.fileindex.FileIndexWriter;
import org.apache.paimon.fileindex.bloomfilter.BloomFilterFileIndex;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * Lagoon's Bloom filter index is Paimon's, byte for byte: for every type Paimon indexes, the same
 * values at the same size give the bytes Paimon 1.3.1's own index writer gives, and the container
 * is Paimon's; the indexes Paimon writes into its tables (embedded in the manifest when small, a
 * file beside the data file otherwise) read in Lagoon with every written value present.
 */
@RequiresPaimon131
class BloomIndexFormatInteropTest extends LagoonSparkTest {
  /** Paimon's serialized Bloom index of the values (internal form) at items / fpp. */
  private static byte[] paimonBloom(DataType type, List<Object> values, int items, double fpp) {
    Options o = new Options();
    o.set("items", Integer.toString(items));
    o.set("fpp", Double.toString(fpp));
    FileIndexWriter w = new BloomFilterFileIndex(type, o).createWriter();
    for (Object v : values) w.write(v);
    return w.serializedBytes();
  }

  private static <T> void sameBytes(DataType type, List<T> values, Function<T, Object> paimonValue,
                                    Function<T, Long> lagoonHash) {
    for (int items : new int[] {7, 100, 5000}) {
      List<Object> internal = new ArrayList<>();
      for (T v : values) internal.add(paimonValue.apply(v));
      BloomFilterIndex mine = BloomFilterIndex.sized(items, 0.1);
      for (T v : values) mine.add(lagoonHash.apply(v));
      assertArrayEquals(paimonBloom(type, internal, items, 0.1), mine.serialize(), type + " at " + items + " items");
    }
  }

  @Test
  void bloomBytesEqualPaimonsForEveryIndexedType() {
    Random r = new Random(11);
    List<String> strings = new ArrayList<>();
    for (int i = 0; i < 300; i++) strings.add("v-" + r.nextInt() + (i % 7 == 0 ? "-\u00e9\u4e2d" : "") + "x".repeat(i % 40));
    sameBytes(DataTypes.STRING(), strings, BinaryString::fromString,
        s -> ValueHashes.ofBytes(s.getBytes(StandardCharsets.UTF_8)));
    List<byte[]> binaries = new ArrayList<>();
    for (String s : strings) binaries.add(s.getBytes(StandardCharsets.UTF_8));
    sameBytes(DataTypes.BYTES(), binaries, b -> b, ValueHashes::ofBytes);
    List<Long> longs = new ArrayList<>();
    for (int i = 0; i < 300; i++) longs.add(i % 3 == 0 ? -r.nextLong() : r.nextLong() % 100000);
    sameBytes(DataTypes.BIGINT(), longs, v -> v, ValueHashes::ofLong);
    sameBytes(DataTypes.INT(), longs, v -> (int) (long) v, v -> ValueHashes.ofLong((int) (long) v));
    sameBytes(DataTypes.SMALLINT(), longs, v -> (short) (long) v, v -> ValueHashes.ofLong((short) (long) v));
    sameBytes(DataTypes.TINYINT(), longs, v -> (byte) (long) v, v -> ValueHashes.ofLong((byte) (long) v));
    sameBytes(DataTypes.DATE(), longs, v -> (int) (long) v % 50000, v -> ValueHashes.ofLong((int) (long) v % 50000));
    sameBytes(DataTypes.DOUBLE(), longs, v -> v / 7.0, v -> ValueHashes.ofDouble(v / 7.0));
    sameBytes(DataTypes.FLOAT(), longs, v -> (float) (v / 7.0), v -> ValueHashes.ofFloat((float) (v / 7.0)));
    List<LocalDateTime> times = new ArrayList<>();
    for (int i = 0; i < 300; i++) times.add(LocalDateTime.of(1960 + i % 80, 1 + i % 12, 1 + i % 28, i % 24, i % 60, i % 60, i * 1_001_000));
    sameBytes(DataTypes.TIMESTAMP(3), times, Timestamp::fromLocalDateTime,
        t -> ValueHashes.ofLong(Timestamp.fromLocalDateTime(t).getMillisecond()));
    sameBytes(DataTypes.TIMESTAMP(6), times, Timestamp::fromLocalDateTime,
        t -> ValueHashes.ofLong(Timestamp.fromLocalDateTime(t).toMicros()));
  }

  @Test
  void containerBytesEqualPaimons() throws Exception {
    byte[] body = BloomFilterIndex.sized(100, 0.1).serialize();
    Map<String, Map<String, byte[]>> one = new LinkedHashMap<>();
    one.put("v", new LinkedHashMap<>(Map.of(BloomFilterIndex.TYPE, body)));
    ByteArrayOutputStream paimon = new ByteArrayOutputStream();
    try (FileIndexFormat.Writer w = FileIndexFormat.createWriter(paimon)) {
      w.writeColumnIndexes(one);
    }
    assertArrayEquals(paimon.toByteArray(), FileIndexFile.write(one));
  }

  @Test
  void indexesPaimonWroteIntoItsTablesReadInLagoon() throws Exception {
    for (String items : new String[] {"50", "1000000"}) { // small: in the manifest; Paimon's default: a file
      Schema schema = Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.STRING())
          .option("file-index.bloom-filter.columns", "v").option("file-index.bloom-filter.v.items", items).build();
      Path dir = PaimonOracle.createTable(warehouse, "bi", "t" + items, schema);
      List<GenericRow> rows = new ArrayList<>();
      for (int i = 0; i < 40; i++) rows.add(GenericRow.of(i, BinaryString.fromString("value-" + i)));
      PaimonOracle.writeRows(dir, rows);

      FileStoreTable t = FileStoreTable.load(new FileIO(new Configuration()), new org.apache.hadoop.fs.Path(dir.toUri()),
          "bi.t" + items);
      List<ManifestEntry> live = new ArrayList<>(LiveFiles.read(t.manifests(), t.snapshots().latest().orElseThrow()));
      assertEquals(1, live.size());
      ManifestEntry e = live.get(0);
      byte[] container;
      if (e.file.embeddedIndex != null) {
        assertEquals("50", items, "a small index is embedded in the manifest");
        container = e.file.embeddedIndex;
      } else {
        assertEquals(1, e.file.extraFiles.size(), "a large index is a file beside the data file: " + e.file.extraFiles);
        String name = e.file.extraFiles.get(0);
        assertTrue(name.endsWith(".index"), name);
        container = Files.readAllBytes(Path.of(t.paths().dataFile(e).getParent().toUri()).resolve(name));
      }
      FileIndexFile.Body body = FileIndexFile.read(container).get("v").get(BloomFilterIndex.TYPE);
      assertNotNull(body);
      BloomFilterIndex bloom = BloomFilterIndex.read(body.data(), body.offset(), body.length());
      for (int i = 0; i < 40; i++) {
        assertTrue(bloom.mightContain(ValueHashes.ofBytes(("value-" + i).getBytes(StandardCharsets.UTF_8))));
      }
      int absent = 0;
      for (int i = 0; i < 1000; i++) {
        if (!bloom.mightContain(ValueHashes.ofBytes(("absent-" + i).getBytes(StandardCharsets.UTF_8)))) absent++;
      }
      assertTrue(absent > 800, "most absent values are ruled out: " + absent);
      assertFalse(container.length == 0);
    }
  }
}
