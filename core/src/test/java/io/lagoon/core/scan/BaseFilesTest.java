package io.lagoon.core.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.catalog.FileSystemCatalog;
import io.lagoon.core.catalog.Identifier;
import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.mergetree.write.KeyValueCommit;
import io.lagoon.core.mergetree.write.KeyValueTableWriter;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.KeyValueFileReader;
import io.lagoon.core.mergetree.compact.TableCompaction;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A write's base files come from the manifests of its partitions only, and match the snapshot's live files. */
class BaseFilesTest {
  private static SparkSession spark;
  @TempDir java.nio.file.Path dir;

  @BeforeAll
  static void startSpark() {
    spark = SparkSession.builder().master("local[1]").appName("base-files-test")
        .config("spark.ui.enabled", "false").getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  private static void write(FileStoreTable t, String dt, int from, int to, long v) throws IOException {
    long base = t.snapshots().latest().map(s -> s.id).orElse(-1L);
    KeyValueTableWriter w = new KeyValueTableWriter(t, base, null);
    for (int id = from; id < to; id++) {
      w.write(new GenericInternalRow(new Object[] {UTF8String.fromString(dt), id, v}));
    }
    KeyValueCommit.commit(t, List.of(w.finish()), null);
  }

  private static TreeSet<String> names(List<ManifestEntry> entries) {
    TreeSet<String> out = new TreeSet<>();
    for (ManifestEntry e : entries) out.add(e.bucket + "/" + e.file.fileName);
    return out;
  }

  @Test
  void readsOnlyTheManifestsOfThePartitionAndKeepsAddBeforeDelete() throws IOException {
    FileSystemCatalog catalog = new FileSystemCatalog(new FileIO(new Configuration()), new Path(dir.resolve("wh").toUri()));
    catalog.createDatabase("db");
    List<DataField> fields = List.of(
        new DataField(0, "dt", PaimonType.withLength(TypeRoot.VARCHAR, Integer.MAX_VALUE).notNull()),
        new DataField(1, "id", PaimonType.of(TypeRoot.INT).notNull()),
        new DataField(2, "v", PaimonType.of(TypeRoot.BIGINT)));
    FileStoreTable t = catalog.createTable(new Identifier("db", "t"), fields, 2, List.of("dt"), List.of("dt", "id"),
        Map.of("bucket", "2"), null);
    write(t, "a", 0, 20, 1);
    write(t, "b", 0, 20, 1);
    write(t, "c", 0, 20, 1);
    write(t, "b", 5, 30, 2);
    // A full compaction of b: its earlier files are deleted by a later manifest.
    TableCompaction.full(t, KeyValueFileReader.build(spark, t, null),
        p -> p.getUTF8String(0).toString().equals("b"));

    Snapshot latest = t.snapshots().latest().orElseThrow();
    int manifests = LiveFiles.manifests(t.manifests(), latest).size();
    BaseFiles base = new BaseFiles(t, latest.id);
    List<ManifestEntry> live = new ArrayList<>(LiveFiles.read(t.manifests(), latest));
    byte[] b = null;
    byte[] a = null;
    for (ManifestEntry e : live) {
      String dt = BinaryRows.deserialize(e.partition, List.of(fields.get(0).type())).getUTF8String(0).toString();
      if (dt.equals("b")) b = e.partition;
      if (dt.equals("a")) a = e.partition;
    }
    for (byte[] partition : new byte[][] {b, a}) {
      List<ManifestEntry> expected = new ArrayList<>();
      List<ManifestEntry> actual = new ArrayList<>();
      for (ManifestEntry e : live) if (Arrays.equals(e.partition, partition)) expected.add(e);
      for (int bucket = 0; bucket < 2; bucket++) actual.addAll(base.of(partition, bucket));
      assertEquals(names(expected), names(actual));
      if (partition == b) {
        assertTrue(base.manifestsRead() < manifests, base.manifestsRead() + " of " + manifests + " manifests read for b");
        for (ManifestEntry e : actual) assertTrue(e.file.level > 0, "b is compacted: " + e.file.fileName);
      }
    }
  }
}
