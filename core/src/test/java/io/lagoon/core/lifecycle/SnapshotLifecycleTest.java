package io.lagoon.core.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.SimpleStats;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.schema.SchemaManager;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.InflightWrites;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Expiry, tags, rollback and orphan removal on a table of (empty) files: each deletes exactly the
 * files that no kept snapshot, tag or branch uses, and nothing else; every snapshot and tag that
 * stays reads all its files; an interrupted expiry leaves a readable table that the next run
 * finishes to the same state.
 */
class SnapshotLifecycleTest {
  private static final PaimonType INT = PaimonType.of(TypeRoot.INT);
  @TempDir java.nio.file.Path tmp;

  @AfterEach
  void noFaults() {
    FileCleaner.beforeDelete = p -> { };
  }

  private FileStoreTable table(Map<String, String> options) throws IOException {
    List<DataField> fields = List.of(new DataField(0, "p", INT), new DataField(1, "v", INT));
    TableSchema schema = new TableSchema(0, fields, 1, List.of("p"), List.of(), options, null, 0L);
    FileIO io = new FileIO(new Configuration());
    Path dir = new Path(tmp.resolve("t-" + UUID.randomUUID()).toUri());
    assertTrue(new SchemaManager(io, dir).tryCommit(schema));
    return new FileStoreTable(io, dir, "db.t", schema);
  }

  private static byte[] partition(int p) {
    return BinaryRows.serialize(new GenericInternalRow(new Object[] {p}), List.of(INT));
  }

  private static ManifestEntry newFile(FileStoreTable t, int p, long rows) throws IOException {
    DataFileMeta f = DataFileMeta.forAppend("data-" + UUID.randomUUID() + "-0.parquet", 100, rows, SimpleStats.EMPTY,
        0, rows - 1, 0);
    ManifestEntry e = new ManifestEntry(FileKind.ADD, partition(p), 0, -1, f);
    java.nio.file.Path local = java.nio.file.Path.of(t.paths().dataFile(e).toUri());
    Files.createDirectories(local.getParent());
    Files.write(local, new byte[0]);
    return e;
  }

  /** Every file under the table, relative (snapshot hints and temporary files included). */
  private static Set<String> files(FileStoreTable t) throws IOException {
    java.nio.file.Path root = java.nio.file.Path.of(t.dir().toUri());
    Set<String> out = new TreeSet<>();
    try (Stream<java.nio.file.Path> s = Files.walk(root)) {
      s.filter(Files::isRegularFile).forEach(p -> out.add(root.relativize(p).toString()));
    }
    return out;
  }

  /** Every file a snapshot needs is on disk: its manifests, index files and live data files. */
  private static void assertReadable(FileStoreTable t, Snapshot s) throws IOException {
    for (ManifestEntry e : LiveFiles.read(t.manifests(), s)) {
      assertTrue(t.io().exists(t.paths().dataFile(e)), "snapshot " + s.id + " needs " + e.file.fileName);
    }
    if (s.indexManifest != null) {
      t.manifests().readIndexManifest(s.indexManifest)
          .forEach(i -> assertTrue(exists(t, t.paths().indexFile(i.fileName)), "index file " + i.fileName));
    }
  }

  private static boolean exists(FileStoreTable t, Path p) {
    try {
      return t.io().exists(p);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Set<String> live(FileStoreTable t, Snapshot s) throws IOException {
    Set<String> out = new TreeSet<>();
    for (ManifestEntry e : LiveFiles.read(t.manifests(), s)) out.add(e.file.fileName);
    return out;
  }

  /** Five snapshots: f1, f2 appended; f1 replaced by f3; tag at 2; f4; partition 2 overwritten by f5. */
  private record History(FileStoreTable table, ManifestEntry f1, ManifestEntry f2, ManifestEntry f3, ManifestEntry f4,
                         ManifestEntry f5) {
  }

  private History history(Map<String, String> options) throws IOException {
    FileStoreTable t = table(options);
    ManifestEntry f1 = newFile(t, 1, 10);
    ManifestEntry f2 = newFile(t, 2, 10);
    t.newAppend().add(List.of(f1)).commit();
    t.newAppend().add(List.of(f2)).commit();
    new TagChanges(t).create("two", 2L, null);
    ManifestEntry f3 = newFile(t, 1, 9);
    t.newRowDelta().addFiles(List.of(f3)).removeFiles(List.of(f1)).commit();
    ManifestEntry f4 = newFile(t, 2, 4);
    t.newAppend().add(List.of(f4)).commit();
    ManifestEntry f5 = newFile(t, 2, 7);
    t.newOverwrite(row -> row.getInt(0) == 2).add(List.of(f5)).commit();
    assertEquals(5L, t.snapshots().latestId().orElseThrow());
    return new History(t, f1, f2, f3, f4, f5);
  }

  private static boolean exists(FileStoreTable t, ManifestEntry e) {
    return exists(t, t.paths().dataFile(e));
  }

  @Test
  void expiryKeepsWhatTheTagAndTheKeptSnapshotsNeedAndDeletesTheRest() throws IOException {
    History h = history(Map.of());
    FileStoreTable t = h.table();
    int expired = new ExpireSnapshots(t).retainMin(1).retainMax(1).expire();
    assertEquals(4, expired);
    assertEquals(List.of(5L), t.snapshots().listIds());
    assertTrue(exists(t, h.f1()) && exists(t, h.f2()), "the tag at snapshot 2 keeps f1 and f2");
    assertFalse(exists(t, h.f4()), "f4 lived only in expired snapshots");
    assertTrue(exists(t, h.f3()) && exists(t, h.f5()));
    assertReadable(t, t.snapshots().latest().orElseThrow());
    Snapshot tagged = t.tags().tag("two").orElseThrow();
    assertReadable(t, tagged);
    assertEquals(Set.of(h.f1().file.fileName, h.f2().file.fileName), live(t, tagged));

    // Deleting the tag now deletes what only it kept, and its manifests.
    Set<String> before = files(t);
    new TagChanges(t).delete(List.of("two"));
    assertFalse(exists(t, h.f1()) || exists(t, h.f2()));
    assertReadable(t, t.snapshots().latest().orElseThrow());
    Set<String> gone = new TreeSet<>(before);
    gone.removeAll(files(t));
    assertTrue(gone.stream().anyMatch(f -> f.startsWith("manifest/manifest-list-")), "the tag's manifest lists go: " + gone);
    assertTrue(gone.contains("tag/tag-two"));
    // Nothing is left that no snapshot uses: an orphan scan finds nothing.
    assertEquals(List.of(), new RemoveOrphanFiles(t).olderThan(System.currentTimeMillis() + 1000).dryRun(true).run());
  }

  @Test
  void expiryHonoursRetainMinTimeAndTheLimitPerRun() throws IOException {
    History h = history(Map.of());
    FileStoreTable t = h.table();
    // All five are younger than an hour: the default time retention keeps every one.
    assertEquals(0, new ExpireSnapshots(t).retainMin(1).expire());
    // Older than now: all but the newest retain-min go, at most max-deletes per run.
    assertEquals(2, new ExpireSnapshots(t).retainMin(2).maxDeletes(2).olderThan(Long.MAX_VALUE).expire());
    assertEquals(List.of(3L, 4L, 5L), t.snapshots().listIds());
    assertEquals(1, new ExpireSnapshots(t).retainMin(2).olderThan(Long.MAX_VALUE).expire());
    assertEquals(List.of(4L, 5L), t.snapshots().listIds());
    for (long id : t.snapshots().listIds()) assertReadable(t, t.snapshots().snapshot(id));
    assertEquals(4L, t.snapshots().earliestId().orElseThrow());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> new ExpireSnapshots(t).retainMin(5).retainMax(2).expire());
    assertTrue(bad.getMessage().contains("retain_max (2) must not be less than retain_min (5)"), bad.getMessage());
  }

  /** Interrupted after each possible number of deletions: the latest reads, and a rerun ends where an uninterrupted run ends. */
  @Test
  void anInterruptedExpiryLeavesAReadableTableAndTheNextRunFinishes() throws IOException {
    History reference = history(Map.of());
    new ExpireSnapshots(reference.table()).retainMin(1).retainMax(1).expire();
    Set<String> expected = relativeToTable(files(reference.table()), reference.table());
    int total = 0;
    for (int stopAfter = 0; ; stopAfter++) {
      History h = history(Map.of());
      FileStoreTable t = h.table();
      int[] count = {0};
      int limit = stopAfter;
      FileCleaner.beforeDelete = p -> {
        if (count[0]++ == limit) throw new IllegalStateException("killed");
      };
      boolean interrupted;
      try {
        new ExpireSnapshots(t).retainMin(1).retainMax(1).expire();
        interrupted = false;
      } catch (IllegalStateException killed) {
        interrupted = true;
      }
      FileCleaner.beforeDelete = p -> { };
      assertReadable(t, t.snapshots().latest().orElseThrow());
      assertReadable(t, t.tags().tag("two").orElseThrow());
      new ExpireSnapshots(t).retainMin(1).retainMax(1).expire();
      assertEquals(expected, relativeToTable(files(t), t), "after a run stopped at deletion " + stopAfter);
      if (!interrupted) {
        total = stopAfter;
        break;
      }
    }
    assertTrue(total > 5, "the run deletes several files: " + total);
  }

  /** File names differ between two tables; what matters is the kinds and counts of what is left. */
  private static Set<String> relativeToTable(Set<String> files, FileStoreTable t) {
    Set<String> out = new TreeSet<>();
    Map<String, Integer> counts = new HashMap<>();
    for (String f : files) {
      String kind = f.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(-[0-9]+)?", "*");
      counts.merge(kind, 1, Integer::sum);
    }
    counts.forEach((k, n) -> out.add(k + " x" + n));
    return out;
  }

  @Test
  void rollbackDeletesNewerSnapshotsTheirTagsAndFilesOnlyTheyUsed() throws IOException {
    History h = history(Map.of());
    FileStoreTable t = h.table();
    new TagChanges(t).create("four", 4L, null);
    new TagChanges(t).create("five", null, null);
    Snapshot target = new Rollback(t).toSnapshot(3);
    assertEquals(3, target.id);
    assertEquals(List.of(1L, 2L, 3L), t.snapshots().listIds());
    assertEquals(3L, t.snapshots().latestId().orElseThrow());
    assertEquals(List.of("two"), t.tags().names(), "tags of newer snapshots go, as in Paimon");
    assertFalse(exists(t, h.f4()) || exists(t, h.f5()), "files only newer snapshots added go");
    assertTrue(exists(t, h.f1()) && exists(t, h.f2()) && exists(t, h.f3()));
    for (long id : t.snapshots().listIds()) assertReadable(t, t.snapshots().snapshot(id));
    // The next commit continues at 4.
    t.newAppend().add(List.of(newFile(t, 3, 1))).commit();
    assertEquals(4L, t.snapshots().latestId().orElseThrow());
    assertEquals(List.of(), new RemoveOrphanFiles(t).olderThan(System.currentTimeMillis() + 1000).dryRun(true).run());
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> new Rollback(t).toSnapshot(9));
    assertTrue(missing.getMessage().contains("snapshot 9: it does not exist"), missing.getMessage());
  }

  @Test
  void rollbackToATagWhoseSnapshotExpiredRestoresItFromTheTag() throws IOException {
    History h = history(Map.of());
    FileStoreTable t = h.table();
    new ExpireSnapshots(t).retainMin(1).retainMax(1).expire();
    assertFalse(t.snapshots().exists(2));
    new Rollback(t).toTag("two");
    assertEquals(List.of(2L), t.snapshots().listIds());
    Snapshot restored = t.snapshots().latest().orElseThrow();
    assertEquals(Set.of(h.f1().file.fileName, h.f2().file.fileName), live(t, restored));
    assertReadable(t, restored);
    assertFalse(exists(t, h.f3()) || exists(t, h.f5()));
    assertFalse(t.io().exists(new Path(t.snapshots().snapshotDir(), "snapshot-2"))
        && t.io().readUtf8(new Path(t.snapshots().snapshotDir(), "snapshot-2")).contains("tagCreateTime"));
  }

  @Test
  void orphanRemovalTakesOnlyUnusedOldFilesAndSparesWritesInFlight() throws Exception {
    History h = history(Map.of());
    FileStoreTable t = h.table();
    ManifestEntry stray = newFile(t, 1, 3);
    Path leftover = new Path(t.manifests().path("manifest-" + UUID.randomUUID() + "-0").toString());
    t.io().writeBytes(leftover, new byte[] {1}, false);
    Path tmpSnapshot = new Path(t.snapshots().snapshotDir(), ".snapshot-9." + UUID.randomUUID() + ".tmp");
    t.io().writeBytes(tmpSnapshot, new byte[] {1}, false);
    Set<String> before = files(t);

    // Younger than the cut-off: nothing goes.
    assertEquals(List.of(), new RemoveOrphanFiles(t).run());
    // A write in flight: its marker protects every file not older than it, whatever the cut-off.
    InflightWrites.Marker marker = InflightWrites.begin(t);
    Thread.sleep(5);
    // An overlapping write of the same table (a commit inside the statement) shares the marker,
    // and the marker outlives the first of them to finish.
    InflightWrites.Marker inner = InflightWrites.begin(t);
    assertEquals(1, files(t).stream().filter(f -> f.startsWith("_lagoon-inflight-")).count());
    ManifestEntry inFlight = newFile(t, 1, 2);
    inner.close();
    inner.close();
    List<Path> found = new RemoveOrphanFiles(t).olderThan(System.currentTimeMillis() + 1000).run();
    assertTrue(exists(t, inFlight), "a file of a write in flight stays");
    marker.close();
    assertEquals(before.size() + 1 - found.size(), files(t).size());

    List<Path> rest = new RemoveOrphanFiles(t).olderThan(System.currentTimeMillis() + 1000).run();
    List<Path> all = new ArrayList<>(found);
    all.addAll(rest);
    Set<String> names = new TreeSet<>();
    for (Path p : all) names.add(p.getName());
    assertEquals(new TreeSet<>(Set.of(stray.file.fileName, inFlight.file.fileName, leftover.getName(), tmpSnapshot.getName())),
        names);
    for (long id : t.snapshots().listIds()) assertReadable(t, t.snapshots().snapshot(id));
    assertReadable(t, t.tags().tag("two").orElseThrow());
    assertFalse(files(t).stream().anyMatch(f -> f.startsWith("_lagoon")), "no marker is left behind");
  }
}
