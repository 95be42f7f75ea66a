package io.lagoon.core.operation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.FileKind;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The key check of a row-level statement on a primary-key table. Where readers skip level 0
 * (deletion vectors), records another writer committed on level 0 but had not compacted yet were
 * invisible to the statement's read, so writing the same keys would lose that writer's change.
 */
class ConcurrentKeysTest {
  private static final PaimonType INT = PaimonType.of(TypeRoot.INT);
  @TempDir java.nio.file.Path tmp;

  private FileStoreTable table(boolean vectors) throws IOException {
    Map<String, String> options = new HashMap<>(Map.of("bucket", "1"));
    if (vectors) options.put("deletion-vectors.enabled", "true");
    return table(options);
  }

  private FileStoreTable table(Map<String, String> options) throws IOException {
    List<DataField> fields = List.of(new DataField(0, "id", INT), new DataField(1, "v", INT));
    TableSchema schema = new TableSchema(0, fields, 1, List.of(), List.of("id"), options, null, 0L);
    FileIO io = new FileIO(new Configuration());
    Path dir = new Path(tmp.resolve("t-" + UUID.randomUUID()).toUri());
    assertTrue(new SchemaManager(io, dir).tryCommit(schema));
    return new FileStoreTable(io, dir, "db.t", schema);
  }

  private static byte[] key(int k) {
    return BinaryRows.serialize(new GenericInternalRow(new Object[] {k}), List.of(INT));
  }

  /** An ADD entry of a new level-0 file holding keys {@code min..max}, present (empty) on disk. */
  private static ManifestEntry levelZero(FileStoreTable t, int min, int max) throws IOException {
    DataFileMeta f = new DataFileMeta("data-" + UUID.randomUUID() + "-0.parquet", 100, max - min + 1, key(min),
        key(max), SimpleStats.EMPTY, SimpleStats.EMPTY, 0, 0, 0, 0, List.of(), 0L, 0L, null, 0, null, null);
    return onDisk(t, new ManifestEntry(FileKind.ADD,
        BinaryRows.serialize(new GenericInternalRow(new Object[0]), List.of()), 0, 1, f));
  }

  /** The entry, after creating its (empty) file. */
  private static ManifestEntry onDisk(FileStoreTable t, ManifestEntry e) throws IOException {
    java.nio.file.Path local = java.nio.file.Path.of(t.paths().dataFile(e).toUri());
    Files.createDirectories(local.getParent());
    Files.write(local, new byte[0]);
    return e;
  }

  @Test
  void keysStillHiddenOnLevelZeroWhenTheStatementReadAreAConflict() throws IOException {
    FileStoreTable t = table(true);
    t.newAppend().add(List.of(levelZero(t, 1, 3))).commit(); // another writer's, not compacted yet
    long readAt = t.snapshots().latest().orElseThrow().id;

    ManifestEntry mine = levelZero(t, 2, 2);
    CommitConflictException e = assertThrows(CommitConflictException.class,
        () -> t.newRowDelta().addFiles(List.of(mine)).validateNoConcurrentKeys(readAt).commit());
    assertTrue(e.getMessage().contains("level 0"), e.getMessage());
    assertEquals(readAt, t.snapshots().latest().orElseThrow().id, "nothing committed");

    // Keys nobody else wrote commit.
    t.newRowDelta().addFiles(List.of(levelZero(t, 7, 9))).validateNoConcurrentKeys(readAt).commit();
    assertEquals(readAt + 1, t.snapshots().latest().orElseThrow().id);
  }

  @Test
  void whereReadersMergeLevelZeroItWasReadAndIsNoConflict() throws IOException {
    FileStoreTable t = table(false);
    t.newAppend().add(List.of(levelZero(t, 1, 3))).commit();
    long readAt = t.snapshots().latest().orElseThrow().id;
    t.newRowDelta().addFiles(List.of(levelZero(t, 2, 2))).validateNoConcurrentKeys(readAt).commit();
    assertEquals(readAt + 1, t.snapshots().latest().orElseThrow().id);
  }

  /** An ADD entry of a level-0 file in {@code bucket} of a partition with {@code total} buckets, on disk. */
  private static ManifestEntry inBucket(FileStoreTable t, int bucket, int total) throws IOException {
    ManifestEntry l0 = levelZero(t, bucket, bucket);
    return onDisk(t, new ManifestEntry(FileKind.ADD, l0.partition, bucket, total, l0.file));
  }

  /**
   * A postponed-bucket table keeps one bucket count per partition: a write that chose another count
   * than a commit since its read gave the partition (another writer, or the compaction of postponed
   * rows) fails as a conflict, whether it appends or is a row-level statement, and commits nothing.
   */
  @Test
  void aPartitionGivenAnotherBucketCountMeanwhileIsAConflict() throws IOException {
    FileStoreTable t = table(Map.of("bucket", "-2"));
    t.newAppend().add(List.of(postponed(t))).commit(); // rows waiting: no count yet
    t.newAppend().add(List.of(inBucket(t, 1, 3))).commit(); // a concurrent commit chose 3 buckets
    long latest = t.snapshots().latest().orElseThrow().id;

    CommitConflictException append = assertThrows(CommitConflictException.class,
        () -> t.newAppend().add(List.of(inBucket(t, 0, 2))).commit());
    assertTrue(append.getMessage().contains("3 buckets") && append.getMessage().contains("used 2"), append.getMessage());
    assertThrows(CommitConflictException.class, () -> t.newRowDelta().addFiles(List.of(inBucket(t, 1, 2))).commit());
    assertEquals(latest, t.snapshots().latest().orElseThrow().id, "nothing committed");

    // The partition's own count commits.
    t.newAppend().add(List.of(inBucket(t, 2, 3))).commit();
    assertEquals(latest + 1, t.snapshots().latest().orElseThrow().id);
  }

  /** A file waiting in {@code bucket-postpone} (bucket -2), present (empty) on disk. */
  private static ManifestEntry postponed(FileStoreTable t) throws IOException {
    ManifestEntry l0 = levelZero(t, 0, 0);
    return onDisk(t, new ManifestEntry(FileKind.ADD, l0.partition, -2, -2, l0.file));
  }

  /**
   * Postponed rows given buckets: the postponed files leave in the APPEND that adds their rows;
   * a second run over the same files, or a commit that wrote the same keys into the bucket after
   * the run read it (its sequence numbers would collide), is a conflict that commits nothing. A
   * record hidden on level 0 is no conflict here: the run does not decide on values it read.
   */
  @Test
  void postponedFilesAreConsumedOnceAndSequenceNumbersNeverCollide() throws IOException {
    FileStoreTable t = table(true);
    t.newAppend().add(List.of(levelZero(t, 1, 3))).commit(); // hidden on level 0, not a conflict here
    ManifestEntry waiting = postponed(t);
    t.newAppend().add(List.of(waiting)).commit();
    long readAt = t.snapshots().latest().orElseThrow().id;

    ManifestEntry given = levelZero(t, 2, 2);
    long committed = t.newAppend().add(List.of(given)).consumePostponed(List.of(waiting), readAt).commit().orElseThrow().id;
    io.lagoon.core.snapshot.Snapshot s = t.snapshots().snapshot(committed);
    assertEquals(io.lagoon.core.snapshot.CommitKind.APPEND, s.commitKind, "the rows are new to readers");
    List<ManifestEntry> live = new java.util.ArrayList<>(io.lagoon.core.scan.LiveFiles.read(t.manifests(), s));
    assertTrue(live.stream().noneMatch(e -> e.bucket == -2), "the postponed file left in the same snapshot");
    assertTrue(live.stream().anyMatch(e -> e.file.fileName.equals(given.file.fileName)));

    CommitConflictException again = assertThrows(CommitConflictException.class,
        () -> t.newAppend().add(List.of(levelZero(t, 2, 2))).consumePostponed(List.of(waiting), readAt).commit());
    assertTrue(again.getMessage().contains("postponed-bucket"), again.getMessage());

    ManifestEntry next = postponed(t);
    t.newAppend().add(List.of(next)).commit();
    long readNext = t.snapshots().latest().orElseThrow().id;
    t.newAppend().add(List.of(levelZero(t, 5, 6))).commit(); // another writer's keys 5..6, after the read
    long latest = t.snapshots().latest().orElseThrow().id;
    assertThrows(CommitConflictException.class,
        () -> t.newAppend().add(List.of(levelZero(t, 6, 8))).consumePostponed(List.of(next), readNext).commit());
    assertEquals(latest, t.snapshots().latest().orElseThrow().id, "nothing committed");
    t.newAppend().add(List.of(levelZero(t, 9, 9))).consumePostponed(List.of(next), readNext).commit();
    assertEquals(latest + 1, t.snapshots().latest().orElseThrow().id, "other keys commit");
  }
  /** A cross-partition table: partitioned by {@code p}, keyed by {@code id} alone, dynamic buckets. */
  private FileStoreTable crossPartitionTable() throws IOException {
    List<DataField> fields = List.of(new DataField(0, "id", INT), new DataField(1, "p", INT), new DataField(2, "v", INT));
    TableSchema schema = new TableSchema(0, fields, 2, List.of("p"), List.of("id"), Map.of("bucket", "-1"), null, 0L);
    FileIO io = new FileIO(new Configuration());
    Path dir = new Path(tmp.resolve("t-" + UUID.randomUUID()).toUri());
    assertTrue(new SchemaManager(io, dir).tryCommit(schema));
    return new FileStoreTable(io, dir, "db.t", schema);
  }

  /** An ADD entry of a level-0 file of partition {@code p}, bucket {@code bucket}, keys {@code min..max}, on disk. */
  private static ManifestEntry inPartition(FileStoreTable t, int p, int bucket, int min, int max) throws IOException {
    ManifestEntry l0 = levelZero(t, min, max);
    byte[] partition = BinaryRows.serialize(new GenericInternalRow(new Object[] {p}), List.of(INT));
    return onDisk(t, new ManifestEntry(FileKind.ADD, partition, bucket, -1, l0.file));
  }

  /**
   * A cross-partition write places each key (and retracts it where it lived) from where keys lived
   * when it started: a commit since that wrote any of its keys, in any partition or bucket, or
   * overwrote anything, is a conflict, for an INSERT as for a row-level statement; keys of other
   * ranges and compactions are not. A write that started on an empty table checks every commit.
   */
  @Test
  void aCrossPartitionWriteConflictsWithItsKeysWrittenAnywhereOrAnyOverwrite() throws IOException {
    FileStoreTable t = crossPartitionTable();
    ManifestEntry first = inPartition(t, 1, 0, 1, 10);
    t.newAppend().add(List.of(first)).commit();
    long located = t.snapshots().latest().orElseThrow().id;
    t.newAppend().add(List.of(inPartition(t, 2, 3, 5, 5))).commit(); // another writer moved key 5 to p=2
    long latest = t.snapshots().latest().orElseThrow().id;

    // This write moves key 5 to p=3 (and retracts it in p=1): with key 5 now in p=2, it would be live twice.
    CommitConflictException insert = assertThrows(CommitConflictException.class, () -> t.newAppend()
        .add(List.of(inPartition(t, 3, 0, 5, 5), inPartition(t, 1, 0, 5, 5))).validateNoConcurrentKeys(located).commit());
    assertTrue(insert.getMessage().contains("snapshot " + latest) && insert.getMessage().contains("partition"),
        insert.getMessage());
    assertThrows(CommitConflictException.class, () -> t.newRowDelta().addFiles(List.of(inPartition(t, 4, 1, 4, 6)))
        .validateNoConcurrentKeys(located).commit());
    assertThrows(CommitConflictException.class, () -> t.newAppend().add(List.of(inPartition(t, 4, 1, 4, 6)))
        .validateNoConcurrentKeys(-1).commit());
    assertEquals(latest, t.snapshots().latest().orElseThrow().id, "nothing committed");

    // Other keys commit, also after a compaction, which only moves records within a bucket.
    DataFileMeta f = new DataFileMeta("data-" + UUID.randomUUID() + "-0.parquet", 100, 10, key(1), key(10),
        SimpleStats.EMPTY, SimpleStats.EMPTY, 0, 0, 0, 5, List.of(), 0L, 0L, null, 1, null, null);
    t.newRewrite().replace(List.of(first), List.of(onDisk(t, new ManifestEntry(FileKind.ADD, first.partition, 0, -1, f))))
        .commit();
    t.newAppend().add(List.of(inPartition(t, 3, 0, 20, 30))).validateNoConcurrentKeys(located).commit();
    assertEquals(latest + 2, t.snapshots().latest().orElseThrow().id);

    // Any overwrite since, even of keys this write does not touch, moved keys it may place.
    long before = t.snapshots().latest().orElseThrow().id;
    t.newOverwrite(row -> row.getInt(0) == 2).add(List.of(inPartition(t, 2, 0, 90, 91))).commit();
    CommitConflictException overwritten = assertThrows(CommitConflictException.class, () -> t.newAppend()
        .add(List.of(inPartition(t, 3, 0, 40, 40))).validateNoConcurrentKeys(before).commit());
    assertTrue(overwritten.getMessage().contains("overwrote"), overwritten.getMessage());
  }

  /**
   * An overwrite of some partitions of a cross-partition table located its keys too (it retracts
   * those living in the partitions it leaves alone): the same check, while a whole-table overwrite
   * (no located keys) replaces whatever is live.
   */
  @Test
  void anOverwriteOfSomePartitionsConflictsWithItsKeysWrittenAnywhere() throws IOException {
    FileStoreTable t = crossPartitionTable();
    t.newAppend().add(List.of(inPartition(t, 1, 0, 1, 10))).commit();
    long located = t.snapshots().latest().orElseThrow().id;
    t.newAppend().add(List.of(inPartition(t, 2, 3, 5, 5))).commit(); // another writer moved key 5 to p=2
    long latest = t.snapshots().latest().orElseThrow().id;

    // Overwriting p=3 with key 5 (retracted in p=1, where it lived): it now lives in p=2.
    CommitConflictException e = assertThrows(CommitConflictException.class, () -> t.newOverwrite(row -> row.getInt(0) == 3)
        .add(List.of(inPartition(t, 3, 0, 5, 5), inPartition(t, 1, 0, 5, 5))).validateNoConcurrentKeys(located).commit());
    assertTrue(e.getMessage().contains("snapshot " + latest), e.getMessage());
    assertEquals(latest, t.snapshots().latest().orElseThrow().id, "nothing committed");

    // Keys nobody wrote since commit; unvalidated, the same overwrite commits as well.
    t.newOverwrite(row -> row.getInt(0) == 3).add(List.of(inPartition(t, 3, 0, 20, 30)))
        .validateNoConcurrentKeys(located).commit();
    t.newOverwrite(row -> row.getInt(0) == 3).add(List.of(inPartition(t, 3, 0, 5, 5))).commit();
    assertEquals(latest + 2, t.snapshots().latest().orElseThrow().id);
  }
}
