package io.lagoon.core.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Paimon's time-travel rules over snapshot and tag files on disk, without a table. */
class TimeTravelTest {
  @TempDir java.nio.file.Path dir;

  private final FileIO io = new FileIO(new Configuration());

  private Snapshot snapshot(long id, long millis) {
    return new Snapshot(id, 0, "base-" + id, null, "delta-" + id, null, null, null, "user", Long.MAX_VALUE,
        CommitKind.APPEND, millis, 0L, 0L, 0L, null);
  }

  private TimeTravel travel() {
    Path table = new Path(dir.toUri());
    return new TimeTravel("db.t", new SnapshotManager(io, table), new TagManager(io, table));
  }

  private void commit(long id, long millis) throws IOException {
    assertTrue(new SnapshotManager(io, new Path(dir.toUri())).tryCommit(snapshot(id, millis)));
  }

  private void tag(String name, long id, long millis) throws IOException {
    Files.createDirectories(dir.resolve("tag"));
    Files.writeString(dir.resolve("tag").resolve("tag-" + name), snapshot(id, millis).toJson());
  }

  @Test
  void aTimeReadsTheLastSnapshotAtOrBeforeIt() throws IOException {
    // Random gaps between commit times, equal times included; checked against a linear scan.
    Random r = new Random(7);
    long[] times = new long[40];
    long t = 1_000;
    for (int i = 0; i < times.length; i++) {
      t += r.nextInt(3) * 10;
      times[i] = t;
      commit(i + 1, t);
    }
    for (long q = 990; q <= t + 10; q += 5) {
      long expected = -1;
      for (int i = 0; i < times.length; i++) if (times[i] <= q) expected = i + 1;
      if (expected < 0) {
        long at = q;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> travel().atOrBefore(at));
        assertTrue(e.getMessage().contains("snapshots are 1..40"), e.getMessage());
      } else {
        assertEquals(expected, travel().atOrBefore(q).id, "time " + q);
      }
    }
  }

  @Test
  void aVersionIsATagFirstThenASnapshotId() throws IOException {
    for (long id = 1; id <= 5; id++) commit(id, id * 100);
    tag("2", 4, 400);
    tag("nightly", 1, 100);
    assertEquals(4, travel().version("2").id, "the tag named 2, not snapshot 2");
    assertEquals(3, travel().version("3").id);
    assertEquals(1, travel().version("nightly").id);
    assertEquals(List.of("2", "nightly"), new TagManager(io, new Path(dir.toUri())).names());
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> travel().version("9"));
    assertTrue(none.getMessage().contains("has no snapshot 9; its snapshots are 1..5")
        && none.getMessage().contains("its tags [2, nightly]"), none.getMessage());
    IllegalArgumentException word = assertThrows(IllegalArgumentException.class, () -> travel().version("weekly"));
    assertTrue(word.getMessage().contains("no tag 'weekly' and it is not a snapshot id"), word.getMessage());
  }

  @Test
  void aTagOutlivesItsSnapshotAndACorruptTagIsNamed() throws IOException {
    commit(1, 100);
    commit(2, 200);
    tag("keep", 1, 100);
    Files.delete(dir.resolve("snapshot").resolve("snapshot-1"));
    assertEquals(1, travel().tag("keep").id);
    assertThrows(IllegalArgumentException.class, () -> travel().snapshot(1));
    Files.writeString(dir.resolve("tag").resolve("tag-broken"), "{not json");
    IOException e = assertThrows(IOException.class, () -> travel().tag("broken"));
    assertTrue(e.getMessage().contains("tag-broken"), e.getMessage());
  }

  @Test
  void aTableWithoutSnapshotsSaysSo() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> travel().atOrBefore(5));
    assertTrue(e.getMessage().contains("it has no snapshots, and it has no tags"), e.getMessage());
  }
}
