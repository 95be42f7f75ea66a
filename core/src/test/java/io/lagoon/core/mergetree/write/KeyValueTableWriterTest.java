package io.lagoon.core.mergetree.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.catalog.FileSystemCatalog;
import io.lagoon.core.catalog.Identifier;
import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.data.BucketFunction;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files a primary-key write leaves: buckets by Paimon's hash, unique sorted keys, rising sequence numbers. */
class KeyValueTableWriterTest {
  private static SparkSession spark;
  @TempDir java.nio.file.Path dir;
  private FileSystemCatalog catalog;

  @BeforeAll
  static void startSpark() {
    spark = SparkSession.builder().master("local[1]").appName("kv-writer-test")
        .config("spark.ui.enabled", "false").getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @BeforeEach
  void open() throws IOException {
    catalog = new FileSystemCatalog(new FileIO(new Configuration()), new Path(dir.resolve("wh").toUri()));
    catalog.createDatabase("db");
  }

  private FileStoreTable table(Map<String, String> options) throws IOException {
    List<DataField> fields = List.of(
        new DataField(0, "id", PaimonType.of(TypeRoot.INT).notNull()),
        new DataField(1, "v", PaimonType.of(TypeRoot.BIGINT)),
        new DataField(2, "op", PaimonType.withLength(TypeRoot.VARCHAR, Integer.MAX_VALUE)));
    Map<String, String> o = new HashMap<>(options);
    o.putIfAbsent("bucket", "3");
    return catalog.createTable(new Identifier("db", "t"), fields, 2, List.of(), List.of("id"), o, null);
  }

  private static InternalRow row(int id, Long v, String op) {
    return new GenericInternalRow(new Object[] {id, v, op == null ? null : UTF8String.fromString(op)});
  }

  /** Every record of the table's live files: key -> (sequence, kind, v), newest sequence last. */
  private Map<Integer, List<long[]>> records(FileStoreTable t, List<ManifestEntry> live) {
    Map<Integer, List<long[]>> out = new TreeMap<>();
    for (ManifestEntry e : live) {
      Path file = t.paths().dataFile(e);
      List<Row> rows = spark.read().parquet(file.toString()).collectAsList();
      int previous = Integer.MIN_VALUE;
      for (Row r : rows) {
        int key = r.getInt(r.fieldIndex("_KEY_id"));
        assertTrue(key > previous, "keys ascend and are unique in " + file);
        previous = key;
        int expectedBucket = BucketFunction.bucket(new GenericInternalRow(new Object[] {key}),
            List.of(PaimonType.of(TypeRoot.INT).notNull()), t.options().bucket());
        assertEquals(expectedBucket, e.bucket, "bucket of key " + key);
        Object v = r.get(r.fieldIndex("v"));
        out.computeIfAbsent(key, k -> new ArrayList<>()).add(new long[] {r.getLong(r.fieldIndex("_SEQUENCE_NUMBER")),
            r.getByte(r.fieldIndex("_VALUE_KIND")), v == null ? -1 : (Long) v});
      }
      assertEquals(rows.size(), e.file.rowCount);
      assertEquals(e.file.minKey.length, e.file.maxKey.length);
      assertEquals(rows.get(0).getInt(0), BinaryRows.deserialize(e.file.minKey, List.of(PaimonType.of(TypeRoot.INT))).getInt(0));
    }
    for (List<long[]> l : out.values()) l.sort((a, b) -> Long.compare(a[0], b[0]));
    return out;
  }

  private List<ManifestEntry> live(FileStoreTable t) throws IOException {
    return new ArrayList<>(LiveFiles.read(t.manifests(), t.snapshots().latest().get()));
  }

  @Test
  void writesSortedUniqueKeysPerBucketAndMergesDuplicatesOfOneWrite() throws IOException {
    FileStoreTable t = table(Map.of());
    KeyValueTableWriter w = new KeyValueTableWriter(t, -1, null);
    for (int i = 0; i < 20; i++) w.write(row(i, (long) i, null));
    w.write(row(5, 500L, null)); // out of order: a new run
    w.write(row(5, 501L, null)); // same key, same write: merged, the later wins
    KeyValueCommit.commit(t, List.of(w.finish()), null);

    Map<Integer, List<long[]>> recs = records(t, live(t));
    assertEquals(20, recs.size());
    assertEquals(2, recs.get(5).size(), "key 5 is in the first run and in the second");
    assertEquals(501L, recs.get(5).get(1)[2]);
    assertTrue(recs.get(5).get(1)[0] > recs.get(5).get(0)[0]);
    for (int i = 0; i < 20; i++) assertEquals(0, recs.get(i).get(0)[1], "+I");
  }

  @Test
  void keySortedInputKeepsEveryBucketOfTheTaskInOneFile() throws IOException {
    FileStoreTable t = table(Map.of());
    KeyValueTableWriter w = new KeyValueTableWriter(t, -1, null);
    for (int i = 0; i < 300; i++) w.write(row(i, (long) i, null)); // buckets interleave row by row
    KeyValueCommit.commit(t, List.of(w.finish()), null);
    List<ManifestEntry> live = live(t);
    assertEquals(3, live.size(), "one file per bucket");
    assertEquals(300, records(t, live).size());
  }

  @Test
  void beyondTheOpenFileLimitTheOldestBucketClosesItsFileAndNothingIsLost() throws IOException {
    int buckets = KeyValueTableWriter.MAX_OPEN_FILES + 8;
    FileStoreTable t = table(Map.of("bucket", Integer.toString(buckets)));
    KeyValueTableWriter w = new KeyValueTableWriter(t, -1, null);
    for (int i = 0; i < 2000; i++) w.write(row(i, (long) i, null));
    KeyValueCommit.commit(t, List.of(w.finish()), null);
    List<ManifestEntry> live = live(t);
    assertTrue(live.size() > buckets, "some buckets were written in several files: " + live.size());
    Map<Integer, List<long[]>> recs = records(t, live);
    assertEquals(2000, recs.size());
    for (List<long[]> r : recs.values()) assertEquals(1, r.size(), "each key written once");
  }

  @Test
  void sequenceNumbersContinueFromTheBaseSnapshotAndDeletesAreKept() throws IOException {
    FileStoreTable t = table(Map.of("rowkind.field", "op"));
    KeyValueTableWriter w1 = new KeyValueTableWriter(t, -1, null);
    for (int i = 0; i < 10; i++) w1.write(row(i, (long) i, "+I"));
    KeyValueCommit.commit(t, List.of(w1.finish()), null);
    long base = t.snapshots().latest().get().id;
    int bucketOf3 = BucketFunction.bucket(new GenericInternalRow(new Object[] {3}),
        List.of(PaimonType.of(TypeRoot.INT).notNull()), 3);
    long maxSeqBefore = -1;
    for (ManifestEntry e : live(t)) {
      if (e.bucket == bucketOf3) maxSeqBefore = Math.max(maxSeqBefore, e.file.maxSequenceNumber);
    }

    KeyValueTableWriter w2 = new KeyValueTableWriter(t, base, null);
    w2.write(row(3, null, "-D"));
    w2.write(row(4, 40L, "+U"));
    KeyValueCommit.commit(t, List.of(w2.finish()), null);

    Map<Integer, List<long[]>> recs = records(t, live(t));
    long[] del = recs.get(3).get(1);
    assertEquals(3, del[1], "-D kept so it shadows the older file");
    assertEquals(maxSeqBefore + 1, del[0], "sequence continues in the bucket");
    assertEquals(2, recs.get(4).get(1)[1]);
  }

  @Test
  void refusesNullKeysAndUnknownRowKinds() throws IOException {
    FileStoreTable t = table(Map.of("rowkind.field", "op"));
    KeyValueTableWriter w = new KeyValueTableWriter(t, -1, null);
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> w.write(row(1, 1L, "X")));
    assertTrue(bad.getMessage().contains("'op'") && bad.getMessage().contains("+I, -U, +U, -D"), bad.getMessage());
    GenericInternalRow nullKey = new GenericInternalRow(new Object[] {null, 1L, UTF8String.fromString("+I")});
    IllegalArgumentException nk = assertThrows(IllegalArgumentException.class, () -> w.write(nullKey));
    assertTrue(nk.getMessage().contains("'id'"), nk.getMessage());
    w.abort();
  }
}
