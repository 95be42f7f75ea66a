package io.lagoon.core.mergetree.compact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.CloseableIterator;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.snapshot.CommitKind;
import io.lagoon.core.snapshot.Snapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableCompactionTest {
  @TempDir java.nio.file.Path tmp;
  private KvTestTable t;
  /** Everything written to partition 1, one list per file, for the expected merged view. */
  private final List<List<KeyValue>> p1Written = new ArrayList<>();
  private DataFileMeta overlapping;
  private DataFileMeta separate;

  @BeforeEach
  void writeTwoPartitions() throws IOException {
    t = new KvTestTable(tmp, true, Map.of());
    List<KeyValue> a = t.records(1, 1, "1+10", "2+20", "3+30");
    List<KeyValue> b = t.records(1, 10, "2+21", "3-", "4+40");
    List<KeyValue> c = t.records(1, 20, "50+500", "51+510");
    p1Written.addAll(List.of(a, b, c));
    overlapping = t.write(1, 0, b);
    separate = t.write(1, 0, c);
    t.append(1, t.write(1, 0, a));
    t.append(1, overlapping, separate);
    t.append(2, t.write(2, 0, t.records(2, 1, "1+1")), t.write(2, 0, t.records(2, 5, "1+2")));
  }

  private List<ManifestEntry> live(int p) throws IOException {
    byte[] part = t.partition(p);
    return t.live().stream().filter(e -> java.util.Arrays.equals(e.partition, part)).collect(Collectors.toList());
  }

  private static List<DataFileMeta> files(List<ManifestEntry> entries) {
    return entries.stream().map(e -> e.file).collect(Collectors.toList());
  }

  private Set<String> onDisk(int p) throws IOException {
    Set<String> out = new TreeSet<>();
    for (FileStatus s : t.table.io().list(t.bucketDir(t.partition(p)))) out.add(s.getPath().getName());
    return out;
  }

  /** The merged view of partition 1's live files, reading new files back from disk. */
  private List<String> p1View() throws IOException {
    List<DataFileMeta> files = files(live(1));
    for (DataFileMeta f : files) if (!t.source.files.containsKey(f.fileName)) t.readBack(1, f);
    return t.visibleFiles(files);
  }

  @Test
  void fullCompactionOfOnePartitionCommitsOneCompactSnapshot() throws IOException {
    Set<String> p2Before = files(live(2)).stream().map(f -> f.fileName).collect(Collectors.toSet());
    List<String> expected = t.visible(p1Written);

    Snapshot s = TableCompaction.full(t.table, t.source, part -> part.getInt(0) == 1).orElseThrow();

    assertEquals(CommitKind.COMPACT, s.commitKind);
    assertEquals(List.of("1=10", "2=21", "4=40", "50=500", "51=510"), expected);
    assertEquals(expected, p1View());
    List<ManifestEntry> p1 = live(1);
    for (ManifestEntry e : p1) {
      assertEquals(5, e.file.level, "everything on the top level");
      assertEquals(1, e.totalBuckets);
      assertEquals(0L, e.file.deleteRowCount);
    }
    CompactRewriterTest.assertOneSortedRun(files(p1), 5);
    // The file overlapping nothing was moved up, not rewritten, and survives the manifest replay.
    assertTrue(p1.stream().anyMatch(e -> e.file.fileName.equals(separate.fileName)));
    assertEquals(p2Before, files(live(2)).stream().map(f -> f.fileName).collect(Collectors.toSet()));
    // p1: keys 1, 2, 4 merged from a and b, plus c's two rows moved up; p2: its two files untouched.
    assertEquals(3 + 2 + 2, s.totalRecordCount);
  }

  @Test
  void nothingToDoCommitsNothing() throws IOException {
    TableCompaction.full(t.table, t.source, null).orElseThrow();
    long id = t.table.snapshots().latest().orElseThrow().id;
    assertEquals(Optional.empty(), TableCompaction.full(t.table, t.source, null));
    assertEquals(id, t.table.snapshots().latest().orElseThrow().id);
  }

  /**
   * A source that, when the compaction reads one of the trigger files, lets another writer first
   * replace that file (same records, new file): the compaction's commit then removes a file that
   * is no longer live.
   */
  private final Set<String> racingCopies = new TreeSet<>();

  private KeyValueSource racing(Set<String> triggers, boolean keepRacing) {
    return new KeyValueSource() {
      @Override
      public CloseableIterator<KeyValue> open(Path bucketDir, DataFileMeta file) {
        if (triggers.remove(file.fileName)) {
          try {
            ManifestEntry current = live(1).stream().filter(e -> e.file.fileName.equals(file.fileName))
                .findFirst().orElseThrow();
            DataFileMeta copy = t.write(1, 0, t.source.records(file.fileName));
            racingCopies.add(copy.fileName);
            t.table.newRewrite().replace(List.of(current), List.of(t.entry(1, copy))).commit();
            if (keepRacing) triggers.add(copy.fileName);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
        return t.source.open(bucketDir, file);
      }
    };
  }

  @Test
  void aConcurrentRemovalIsRetriedOnTheNewSnapshot() throws IOException {
    List<String> expected = t.visible(p1Written);
    Set<String> triggers = new HashSet<>(Set.of(overlapping.fileName));
    Set<String> diskBefore = onDisk(1);

    TableCompaction.full(t.table, racing(triggers, false), part -> part.getInt(0) == 1).orElseThrow();

    assertEquals(expected, p1View());
    List<ManifestEntry> p1 = live(1);
    p1.forEach(e -> assertEquals(5, e.file.level));
    // On disk: the original inputs (old snapshots still use them), the racing writer's copy and
    // the final outputs; the first attempt's outputs were deleted.
    Set<String> expectedDisk = new TreeSet<>(diskBefore);
    expectedDisk.addAll(racingCopies);
    p1.forEach(e -> expectedDisk.add(e.file.fileName));
    assertEquals(1, racingCopies.size());
    assertEquals(expectedDisk, onDisk(1));
  }

  @Test
  void aFileMovedToAnotherLevelConcurrentlyIsAConflictToo() throws IOException {
    List<String> expected = t.visible(p1Written);
    boolean[] moved = {false};
    KeyValueSource mover = new KeyValueSource() {
      @Override
      public CloseableIterator<KeyValue> open(Path bucketDir, DataFileMeta file) {
        if (!moved[0]) {
          moved[0] = true;
          try {
            // Another compaction moves the separate file to level 1 (same name, new level).
            ManifestEntry current = live(1).stream().filter(e -> e.file.fileName.equals(separate.fileName))
                .findFirst().orElseThrow();
            t.table.newRewrite().replace(List.of(current),
                List.of(t.entry(1, CompactRewriter.withLevel(separate, 1)))).commit();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
        return t.source.open(bucketDir, file);
      }
    };
    long before = t.table.snapshots().latest().orElseThrow().id;

    Snapshot s = TableCompaction.full(t.table, mover, part -> part.getInt(0) == 1).orElseThrow();

    assertEquals(before + 2, s.id, "the mover's snapshot, then the retried compaction");
    // The compaction deletes the entry that was live when it committed: level 1, not 0.
    List<ManifestEntry> delta = new ArrayList<>();
    for (var m : t.table.manifests().readManifestList(s.deltaManifestList)) {
      delta.addAll(t.table.manifests().readManifest(m.fileName));
    }
    List<Integer> deletedLevels = delta.stream()
        .filter(e -> e.kind == io.lagoon.core.manifest.FileKind.DELETE && e.file.fileName.equals(separate.fileName))
        .map(e -> e.file.level).collect(Collectors.toList());
    assertEquals(List.of(1), deletedLevels);
    assertEquals(expected, p1View());
    live(1).forEach(e -> assertEquals(5, e.file.level));
  }

  @Test
  void repeatedConflictsFailClearlyWithoutChangingData() throws IOException {
    List<String> expected = t.visible(p1Written);
    Set<String> triggers = new HashSet<>(Set.of(overlapping.fileName));
    Set<String> disk1 = onDisk(1);
    Set<String> disk2 = onDisk(2);

    CommitConflictException e = assertThrows(CommitConflictException.class,
        () -> TableCompaction.full(t.table, racing(triggers, true), null));

    assertTrue(e.getMessage().contains("db.t") && e.getMessage().contains("run it again"), e.getMessage());
    assertEquals(expected, p1View());
    live(1).forEach(x -> assertEquals(0, x.file.level, "nothing was compacted"));
    // No output of either attempt is left, in either partition; only the racing writer's copies.
    disk1.addAll(racingCopies);
    assertEquals(TableCompaction.ATTEMPTS, racingCopies.size());
    assertEquals(disk1, onDisk(1));
    assertEquals(disk2, onDisk(2));
    live(2).forEach(x -> assertEquals(0, x.file.level));
  }
}
