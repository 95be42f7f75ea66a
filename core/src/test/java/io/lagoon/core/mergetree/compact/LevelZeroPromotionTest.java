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
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit path's answer to a lost compaction on tables whose readers skip level 0: the write's
 * level-0 files are compacted again on the latest snapshot until none is left, each lost attempt
 * re-planned; a level above 0 never ends up with two overlapping files.
 */
class LevelZeroPromotionTest {
  @TempDir java.nio.file.Path tmp;

  private KvTestTable table(String name, Map<String, String> options) throws IOException {
    return new KvTestTable(tmp.resolve(name), false, options);
  }

  /** Serves registered records, and reads compaction outputs back from disk the first time. */
  private static KeyValueSource diskBacked(KvTestTable t) {
    return (bucketDir, file) -> {
      if (!t.source.files.containsKey(file.fileName)) {
        try {
          t.readBack(0, file);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return t.source.open(bucketDir, file);
    };
  }

  /**
   * Before each of the first {@code races} compaction attempts reads its input, another writer
   * rewrites the bucket's top file in place (same records, new file): the attempt then finds the
   * bucket changed, while the write's level-0 file is still there.
   */
  private static KeyValueSource racing(KvTestTable t, int races, AtomicInteger raced) {
    KeyValueSource plain = diskBacked(t);
    return new KeyValueSource() {
      boolean inRace;

      @Override
      public CloseableIterator<KeyValue> open(Path bucketDir, DataFileMeta file) {
        if (!inRace && raced.get() < races) {
          inRace = true;
          try {
            raced.incrementAndGet();
            ManifestEntry top = null;
            for (ManifestEntry e : t.live()) if (top == null || e.file.level > top.file.level) top = e;
            plain.open(bucketDir, top.file).close(); // registers its records
            DataFileMeta copy = t.write(0, top.file.level, t.source.records(top.file.fileName));
            t.table.newRewrite().replace(List.of(top), List.of(t.entry(0, copy))).commit();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          } finally {
            inRace = false;
          }
        }
        return plain.open(bucketDir, file);
      }
    };
  }

  private static List<ManifestEntry> levelZero(KvTestTable t) throws IOException {
    List<ManifestEntry> out = new ArrayList<>();
    for (ManifestEntry e : t.live()) if (e.file.level == 0) out.add(e);
    return out;
  }

  /** The merged view of the live files above level 0, which is all a reader of such a table sees. */
  private static List<String> readerView(KvTestTable t) throws IOException {
    List<DataFileMeta> files = new ArrayList<>();
    for (ManifestEntry e : t.live()) {
      if (e.file.level == 0) continue;
      if (!t.source.files.containsKey(e.file.fileName)) t.readBack(0, e.file);
      files.add(e.file);
    }
    return t.visibleFiles(files);
  }

  @Test
  void aWriteWhoseCompactionWasDroppedIsPushedUpThroughRacingCompactions() throws IOException {
    for (Map<String, String> options : List.of(Map.of("deletion-vectors.enabled", "true"),
        Map.of("merge-engine", "first-row"))) {
      KvTestTable t = table(options.toString().replaceAll("\\W", ""), options);
      DataFileMeta top = t.write(0, 5, t.records(0, 1, "1+1", "2+2", "3+3"));
      t.append(0, top);
      // The write: committed on level 0, its own compaction lost (dropped).
      DataFileMeta mine = t.write(0, 0, t.records(0, 100, "2+20", "4+40"));
      t.append(0, mine);
      AtomicInteger raced = new AtomicInteger();

      LevelZeroPromotion.untilVisible(t.table, racing(t, 2, raced), List.of(t.entry(0, mine)));

      assertEquals(2, raced.get(), options + ": two attempts lost to a racing compaction");
      assertEquals(List.of(), levelZero(t), options + ": nothing left on level 0");
      String firstRowTwo = options.containsKey("merge-engine") ? "2=2" : "2=20";
      assertEquals(List.of("1=1", firstRowTwo, "3=3", "4=40"), readerView(t), options.toString());
    }
  }

  @Test
  void aWriteAlreadyPushedUpByAnotherWriterNeedsNoCompaction() throws IOException {
    KvTestTable t = table("done", Map.of("deletion-vectors.enabled", "true"));
    DataFileMeta mine = t.write(0, 0, t.records(0, 1, "1+1"));
    t.append(0, mine);
    TableCompaction.compactOnce(t.table, diskBacked(t), t.table.snapshots().latest().orElseThrow(), e -> true,
        BucketCompactor.Mode.FORCE_UP_LEVEL0).orElseThrow();
    long id = t.table.snapshots().latest().orElseThrow().id;
    AtomicInteger opened = new AtomicInteger();
    KeyValueSource counting = (dir, f) -> {
      opened.incrementAndGet();
      return t.source.open(dir, f);
    };

    LevelZeroPromotion.untilVisible(t.table, counting, List.of(t.entry(0, mine)));

    assertEquals(id, t.table.snapshots().latest().orElseThrow().id, "no new snapshot");
    assertEquals(0, opened.get(), "no file read");
  }

  @Test
  void endlessConflictsFailNamingTheCommittedWrite() throws IOException {
    KvTestTable t = table("endless", Map.of("deletion-vectors.enabled", "true", "commit.max-retries", "2"));
    t.append(0, t.write(0, 5, t.records(0, 1, "1+1", "2+2")));
    DataFileMeta mine = t.write(0, 0, t.records(0, 10, "1+10"));
    t.append(0, mine);
    AtomicInteger raced = new AtomicInteger();

    CommitConflictException e = assertThrows(CommitConflictException.class,
        () -> LevelZeroPromotion.untilVisible(t.table, racing(t, Integer.MAX_VALUE, raced), List.of(t.entry(0, mine))));

    assertTrue(e.getMessage().contains("db.t") && e.getMessage().contains("is committed")
        && e.getMessage().contains("level 0") && e.getMessage().contains("commit.max-retries=2"), e.getMessage());
    assertTrue(raced.get() >= 3, "the first attempt and two retries each lost a race: " + raced.get());
    assertEquals(1, levelZero(t).size(), "the write stays committed on level 0");
  }

  @Test
  void twoCompactionsIntoOneLevelWithOverlappingKeysCannotBothCommit() throws IOException {
    KvTestTable t = table("overlap", Map.of());
    DataFileMeta a = t.write(0, 0, t.records(0, 1, "1+1", "5+5"));
    DataFileMeta b = t.write(0, 0, t.records(0, 10, "3+3", "9+9"));
    DataFileMeta c = t.write(0, 0, t.records(0, 20, "20+20"));
    t.append(0, a, b, c);
    List<ManifestEntry> live = new ArrayList<>(t.live());
    ManifestEntry ea = live.stream().filter(e -> e.file.fileName.equals(a.fileName)).findFirst().orElseThrow();
    ManifestEntry eb = live.stream().filter(e -> e.file.fileName.equals(b.fileName)).findFirst().orElseThrow();
    ManifestEntry ec = live.stream().filter(e -> e.file.fileName.equals(c.fileName)).findFirst().orElseThrow();
    // Each moves a different file up to level 3: a then b overlap ([1,5] and [3,9]), c does not.
    t.table.newRewrite().replace(List.of(ea), List.of(t.entry(0, CompactRewriter.withLevel(a, 3)))).commit();
    long id = t.table.snapshots().latest().orElseThrow().id;

    CommitConflictException e = assertThrows(CommitConflictException.class, () -> t.table.newRewrite().replace(List.of(eb),
        List.of(t.entry(0, CompactRewriter.withLevel(b, 3)))).commit());
    assertTrue(e.getMessage().contains("Level conflict") && e.getMessage().contains("level 3"), e.getMessage());
    assertEquals(id, t.table.snapshots().latest().orElseThrow().id, "nothing committed");

    t.table.newRewrite().replace(List.of(ec), List.of(t.entry(0, CompactRewriter.withLevel(c, 3)))).commit();
    // b may go to another level, or replace a on level 3 together with it.
    ManifestEntry a3 = t.live().stream().filter(x -> x.file.fileName.equals(a.fileName)).findFirst().orElseThrow();
    t.table.newRewrite().replace(List.of(a3, eb), List.of(t.entry(0, CompactRewriter.withLevel(a, 3)),
        t.entry(0, CompactRewriter.withLevel(b, 2)))).commit();
    assertEquals(0, levelZero(t).size());
  }
}
