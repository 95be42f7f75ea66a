package io.lagoon.core.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What writers killed mid-commit leave in {@code snapshot/} (0-byte {@code .snapshot-N.<uuid>.tmp}
 * and {@code .LATEST.<uuid>.tmp}, a hint that lags behind) never passes for a snapshot, does not
 * stop the next commit, and is recognised as a temporary file.
 */
class SnapshotManagerTest {
  @TempDir java.nio.file.Path dir;

  private static Snapshot snapshot(long id) {
    return new Snapshot(id, 0, "base-" + id, null, "delta-" + id, null, null, null, "user", Long.MAX_VALUE,
        CommitKind.APPEND, 1000L * id, 0L, 0L, 0L, null);
  }

  private SnapshotManager manager() {
    return new SnapshotManager(new FileIO(new Configuration()), new Path(dir.toUri()));
  }

  private void leftover(String name) throws IOException {
    Files.createDirectories(dir.resolve("snapshot"));
    Files.write(dir.resolve("snapshot").resolve(name), new byte[0]);
  }

  @Test
  void temporaryFilesOfKilledWritersAreNoSnapshots() throws IOException {
    SnapshotManager sm = manager();
    for (long id = 1; id <= 3; id++) assertTrue(sm.tryCommit(snapshot(id)));
    // Killed while publishing snapshot 4 (twice) and while moving the hint; plus a stray name.
    leftover(".snapshot-4." + UUID.randomUUID() + ".tmp");
    leftover(".snapshot-4." + UUID.randomUUID() + ".tmp");
    leftover(".snapshot-2." + UUID.randomUUID() + ".tmp");
    leftover(".LATEST." + UUID.randomUUID() + ".tmp");
    leftover("snapshot-4.tmp");
    leftover("snapshot-");

    assertEquals(List.of(1L, 2L, 3L), sm.listIds());
    assertEquals(Optional.of(3L), sm.latestId());
    assertEquals(3, sm.latest().orElseThrow().id);
    assertTrue(sm.tryCommit(snapshot(4)), "the next writer publishes snapshot 4 despite the leftovers");
    assertEquals(Optional.of(4L), sm.latestId());
    assertFalse(sm.tryCommit(snapshot(4)), "and a second writer still loses the race for it");

    for (String name : List.of(".snapshot-4." + UUID.randomUUID() + ".tmp", ".LATEST." + UUID.randomUUID() + ".tmp")) {
      assertTrue(FileIO.isTemporaryFile(name), name);
    }
    for (String name : List.of("snapshot-4", "LATEST", "EARLIEST", "snapshot-4.tmp", ".tmp", "schema-0")) {
      assertFalse(FileIO.isTemporaryFile(name), name);
    }
  }

  @Test
  void aHintLeftBehindByAKilledWriterIsWalkedForwardWithoutListing() throws IOException {
    SnapshotManager sm = manager();
    for (long id = 1; id <= 5; id++) assertTrue(sm.tryCommit(snapshot(id)));
    // A writer published 6 and 7 and died before moving the hint.
    Files.writeString(dir.resolve("snapshot/LATEST"), "5");
    Files.writeString(dir.resolve("snapshot/snapshot-6"), snapshot(6).toJson());
    Files.writeString(dir.resolve("snapshot/snapshot-7"), snapshot(7).toJson());
    // Were the folder listed, this bogus file would claim to be the latest: the probe never looks.
    Files.writeString(dir.resolve("snapshot/snapshot-99"), snapshot(99).toJson());
    assertEquals(Optional.of(7L), sm.latestId());

    // A hint at an expired snapshot falls back to the listing.
    Files.delete(dir.resolve("snapshot/snapshot-99"));
    Files.writeString(dir.resolve("snapshot/LATEST"), "0");
    assertEquals(Optional.of(7L), sm.latestId());
  }

  @Test
  void onlyDigitsAfterThePrefixMakeASnapshotName() {
    assertEquals(12, SnapshotManager.idOf("snapshot-12"));
    for (String name : List.of("snapshot-", "snapshot-1a", "snapshot--1", ".snapshot-1.x.tmp", "snapshot-1.tmp",
        "snapshot-99999999999999999999", "LATEST")) {
      assertEquals(-1, SnapshotManager.idOf(name), name);
    }
  }
}
