package io.lagoon.core.dynamicbucket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.BucketId;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.SimpleStats;
import io.lagoon.core.schema.SchemaManager;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HASH index as commits change it: a write's new keys join their bucket's file in the same
 * snapshot as its data, concurrent writers' new keys of one bucket are both kept, a concurrent
 * writer that gave a new key another bucket makes the later commit a conflict that leaves
 * nothing behind, and an overwrite replaces its partitions' index, all read back through the same
 * {@link SnapshotHashIndex} tasks assign from.
 */
class HashIndexCommitTest {
  private static final PaimonType INT = PaimonType.of(TypeRoot.INT);
  @TempDir java.nio.file.Path tmp;
  private FileStoreTable table;

  @BeforeEach
  void dynamicBucketTable() throws IOException {
    java.nio.file.Path folder = tmp.resolve("t-" + UUID.randomUUID());
    List<DataField> fields = List.of(new DataField(0, "p", INT.notNull()), new DataField(1, "id", INT.notNull()));
    TableSchema schema = new TableSchema(0, fields, 1, List.of("p"), List.of("p", "id"),
        Map.of("bucket", "-1", "commit.max-retries", "2"), null, 0L);
    FileIO io = new FileIO(new Configuration());
    Path dir = new Path(folder.toUri());
    assertTrue(new SchemaManager(io, dir).tryCommit(schema));
    table = new FileStoreTable(io, dir, "db.t", schema);
  }

  private static byte[] partition(int p) {
    return BinaryRows.serialize(new GenericInternalRow(new Object[] {p}), List.of(INT));
  }

  private ManifestEntry newFile(int p, int bucket) throws IOException {
    DataFileMeta f = DataFileMeta.forAppend("data-" + UUID.randomUUID() + "-0.parquet", 100, 1, SimpleStats.EMPTY,
        0, 0, 0);
    ManifestEntry e = new ManifestEntry(FileKind.ADD, partition(p), bucket, -1, f);
    java.nio.file.Path local = java.nio.file.Path.of(table.paths().dataFile(e).toUri());
    Files.createDirectories(local.getParent());
    Files.write(local, new byte[0]);
    return e;
  }

  private static Map<BucketId, int[]> keys(int p, int bucket, int... hashes) {
    return Map.of(new BucketId(partition(p), bucket), hashes);
  }

  /** Commits one file per bucket of {@code fresh}, with the buckets assigned on {@code base}. */
  private void append(long base, Map<BucketId, int[]> fresh) throws IOException {
    List<ManifestEntry> files = new java.util.ArrayList<>();
    for (BucketId b : fresh.keySet()) {
      files.add(newFile(BinaryRows.deserialize(b.partition, List.of(INT)).getInt(0), b.bucket));
    }
    table.newAppend().add(files).assignKeys(new KeyAssignments(base).add(fresh)).commit();
  }

  private long latest() throws IOException {
    return table.snapshots().latestId().orElse(-1L);
  }

  /** Partition -> bucket -> sorted hashes, as a task would load them from the latest snapshot. */
  private Map<String, String> index() throws IOException {
    Map<String, String> out = new TreeMap<>();
    SnapshotHashIndex index = SnapshotHashIndex.of(table, latest());
    for (int p = 0; p < 3; p++) {
      Map<Integer, List<Integer>> buckets = new TreeMap<>();
      index.forEach(partition(p), (b, h) -> buckets.computeIfAbsent(b, k -> new java.util.ArrayList<>()).add(h));
      for (Map.Entry<Integer, List<Integer>> b : buckets.entrySet()) {
        b.getValue().sort(Integer::compare);
        out.put(p + "/" + b.getKey(), b.getValue().toString());
      }
    }
    return out;
  }

  private List<String> indexFiles() throws IOException {
    java.nio.file.Path d = java.nio.file.Path.of(table.dir().toUri()).resolve("index");
    if (!Files.exists(d)) return List.of();
    try (Stream<java.nio.file.Path> s = Files.list(d)) {
      return s.map(f -> f.getFileName().toString()).sorted().collect(java.util.stream.Collectors.toList());
    }
  }

  @Test
  void newKeysJoinTheirBucketsFileInTheSameSnapshot() throws IOException {
    append(-1, keys(0, 0, 5, 6));
    append(latest(), keys(0, 0, 7));
    append(latest(), keys(1, 3, 5));
    assertEquals(Map.of("0/0", "[5, 6, 7]", "1/3", "[5]"), index());
    List<IndexManifestEntry> live = table.manifests().readIndexManifest(table.snapshots().latest().get().indexManifest);
    assertEquals(2, live.size(), "one file per bucket is live");
    assertEquals(3, indexFiles().size(), "the replaced one stays for older snapshots");
    // Paimon's layout: one big-endian int per key, the entry counting them.
    IndexManifestEntry e = live.get(0).bucket == 0 ? live.get(0) : live.get(1);
    assertArrayEquals(new int[] {5, 6, 7}, HashIndexFile.read(table.io(), table.paths().indexFile(e.fileName)));
    assertEquals(12, e.fileSize);
  }

  @Test
  void concurrentNewKeysOfOneBucketAreBothKept() throws IOException {
    append(-1, keys(0, 0, 1));
    long base = latest();
    append(base, keys(0, 0, 2));
    append(base, keys(0, 0, 3, 2)); // the same new key in the same bucket is no conflict
    assertEquals(Map.of("0/0", "[1, 2, 3]"), index());
  }

  @Test
  void aNewKeyAConcurrentCommitPutInAnotherBucketIsAConflictThatLeavesNothing() throws IOException {
    append(-1, keys(0, 0, 1));
    long base = latest();
    append(base, keys(0, 1, 9));
    List<String> filesBefore = indexFiles();
    Map<String, String> indexBefore = index();
    CommitConflictException e = assertThrows(CommitConflictException.class, () -> append(base, keys(0, 0, 9)));
    assertTrue(e.getMessage().contains("hash 9") && e.getMessage().contains("bucket 1"), e.getMessage());
    assertEquals(filesBefore, indexFiles(), "the losing attempt's index files are gone");
    assertEquals(indexBefore, index());
    // Keys of other partitions never conflict.
    append(base, keys(2, 0, 9));
    assertEquals("[9]", index().get("2/0"));
  }

  @Test
  void anOverwriteReplacesTheIndexOfItsPartitionsOnly() throws IOException {
    append(-1, Map.of(new BucketId(partition(0), 0), new int[] {1, 2}, new BucketId(partition(1), 0), new int[] {3}));
    table.newOverwrite(row -> row.getInt(0) == 0).add(List.of(newFile(0, 4)))
        .assignKeys(new KeyAssignments(-1).add(keys(0, 4, 8))).commit();
    assertEquals(Map.of("0/4", "[8]", "1/0", "[3]"), index());
    // Emptying a partition drops its index.
    table.newOverwrite(row -> row.getInt(0) == 0).commit();
    assertEquals(Map.of("1/0", "[3]"), index());
  }

  @Test
  void unionKeepsOrderAndDropsDuplicates() {
    assertEquals(Arrays.toString(new int[] {3, 1, 2, 5}), Arrays.toString(HashIndexUpdate.union(new int[] {3, 1, 2},
        new int[] {2, 5, 3})));
  }

  /**
   * Two writers assign the same new keys on the same snapshot with different numbers of
   * assigners (as jobs on clusters of different sizes do), so some keys get different buckets:
   * whichever commits second fails, in either order, and its retry on the new snapshot puts
   * those keys where the first put them.
   */
  @Test
  void writersThatGaveANewKeyDifferentBucketsConflictInEitherOrder() throws IOException {
    for (boolean wideFirst : new boolean[] {true, false}) {
      dynamicBucketTable();
      append(-1, keys(0, 0, 100));
      long base = latest();
      Map<BucketId, int[]> narrow = assign(base, 1);
      Map<BucketId, int[]> wide = assign(base, 2);
      append(base, wideFirst ? wide : narrow);
      Map<BucketId, int[]> second = wideFirst ? narrow : wide;
      assertThrows(CommitConflictException.class, () -> append(base, second), "second of wideFirst=" + wideFirst);
      Map<BucketId, int[]> retried = assign(latest(), wideFirst ? 1 : 2);
      assertTrue(retried.isEmpty(), "on the new snapshot every key is known: " + retried.keySet());
    }
  }

  /** The new keys' hashes a write of keys 1..7 of partition 0 assigns with {@code n} assigners. */
  private Map<BucketId, int[]> assign(long base, int n) throws IOException {
    DynamicBucketAssigner a = AssignerPlan.of(SnapshotHashIndex.of(table, base), n, 2, -1).newAssigner();
    for (int h = 1; h <= 7; h++) a.assign(partition(0), h);
    return a.freshHashes();
  }
}
