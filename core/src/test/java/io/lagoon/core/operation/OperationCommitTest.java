package io.lagoon.core.operation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.commit.CommitBase;
import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.commit.PlannedChange;
import io.lagoon.core.commit.TableOperation;
import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.deletionvectors.DeletionVectorIndex;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.SimpleStats;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.schema.SchemaManager;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.snapshot.CommitKind;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit path every operation takes, with snapshots that race it: each attempt is planned on
 * the latest snapshot, a lost attempt leaves none of its files, a change that no longer applies
 * fails naming why and takes the operation's own files with it, and nothing to do commits nothing.
 */
class OperationCommitTest {
  private static final PaimonType INT = PaimonType.of(TypeRoot.INT);
  @TempDir java.nio.file.Path tmp;
  private FileStoreTable table;

  @BeforeEach
  void appendTableWithDeletionVectors() throws IOException {
    table = table(Map.of("deletion-vectors.enabled", "true", "commit.max-retries", "3"));
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

  /** An ADD entry of a new file of {@code rows} rows in partition p, present (empty) on disk. */
  private ManifestEntry newFile(FileStoreTable t, int p, long rows) throws IOException {
    DataFileMeta f = DataFileMeta.forAppend("data-" + UUID.randomUUID() + "-0.parquet", 100, rows, SimpleStats.EMPTY,
        0, rows - 1, 0);
    ManifestEntry e = new ManifestEntry(FileKind.ADD, partition(p), 0, -1, f);
    java.nio.file.Path local = java.nio.file.Path.of(t.paths().dataFile(e).toUri());
    Files.createDirectories(local.getParent());
    Files.write(local, new byte[0]);
    return e;
  }

  /** An ADD entry of a new changelog file of {@code rows} rows in partition p, present (empty) on disk. */
  private ManifestEntry newChangelogFile(FileStoreTable t, int p, long rows) throws IOException {
    ManifestEntry data = newFile(t, p, rows);
    Files.delete(java.nio.file.Path.of(t.paths().dataFile(data).toUri()));
    DataFileMeta f = DataFileMeta.forAppend("changelog-" + UUID.randomUUID() + "-0.parquet", 100, rows,
        SimpleStats.EMPTY, 0, rows - 1, 0);
    ManifestEntry e = new ManifestEntry(FileKind.ADD, partition(p), 0, -1, f);
    Files.write(java.nio.file.Path.of(t.paths().dataFile(e).toUri()), new byte[0]);
    return e;
  }

  private boolean exists(FileStoreTable t, ManifestEntry e) {
    return Files.exists(java.nio.file.Path.of(t.paths().dataFile(e).toUri()));
  }

  private Set<String> liveNames(FileStoreTable t) throws IOException {
    Set<String> out = new TreeSet<>();
    for (ManifestEntry e : LiveFiles.read(t.manifests(), t.snapshots().latest().orElseThrow())) out.add(e.file.fileName);
    return out;
  }

  /** Every file under manifest/ and index/ (a lost attempt must leave none of its own). */
  private Set<String> metadataFiles(FileStoreTable t) throws IOException {
    Set<String> out = new TreeSet<>();
    for (String dir : List.of("manifest", "index")) {
      java.nio.file.Path d = java.nio.file.Path.of(t.dir().toUri()).resolve(dir);
      if (!Files.exists(d)) continue;
      try (Stream<java.nio.file.Path> s = Files.list(d)) {
        s.forEach(p -> out.add(dir + "/" + p.getFileName()));
      }
    }
    return out;
  }

  /** Metadata files some snapshot references: manifest lists, their manifests, index manifests, index files. */
  private Set<String> referencedMetadata(FileStoreTable t) throws IOException {
    Set<String> out = new TreeSet<>();
    for (long id : t.snapshots().listIds()) {
      Snapshot s = t.snapshots().snapshot(id);
      for (String list : new String[] {s.baseManifestList, s.deltaManifestList, s.changelogManifestList}) {
        if (list == null) continue;
        out.add("manifest/" + list);
        t.manifests().readManifestList(list).forEach(m -> out.add("manifest/" + m.fileName));
      }
      if (s.indexManifest != null) {
        out.add("manifest/" + s.indexManifest);
        t.manifests().readIndexManifest(s.indexManifest).forEach(e -> out.add("index/" + e.fileName));
      }
    }
    return out;
  }

  /**
   * Wraps an operation: before each of the first {@code races} plans, another writer commits an
   * append of its own, so that attempt loses the race for the snapshot id.
   */
  private static final class Raced implements TableOperation {
    final TableOperation op;
    final FileStoreTable table;
    final List<ManifestEntry> racers;
    final List<Long> bases = new ArrayList<>();
    int races;

    Raced(FileStoreTable table, TableOperation op, List<ManifestEntry> racers) {
      this.table = table;
      this.op = op;
      this.racers = new ArrayList<>(racers);
    }

    @Override
    public CommitKind kind() {
      return op.kind();
    }

    @Override
    public PlannedChange plan(CommitBase base, List<Path> written) throws IOException {
      bases.add(base.snapshot().map(s -> s.id).orElse(0L));
      PlannedChange change = op.plan(base, written);
      if (!racers.isEmpty()) {
        races++;
        table.newAppend().add(List.of(racers.remove(0))).commit();
      }
      return change;
    }

    @Override
    public List<ManifestEntry> newDataFiles() {
      return op.newDataFiles();
    }

    @Override
    public List<String> newIndexFiles() {
      return op.newIndexFiles();
    }
  }

  /**
   * After a failure that may have come after a snapshot landed, a written file stays when any
   * snapshot since then added it, even once a later compaction replaced it (a reader of that
   * snapshot may be reading it); a file no snapshot added goes.
   */
  @Test
  void cleanupKeepsFilesAnySnapshotSinceAdded() throws IOException {
    long before = table.snapshots().latestId().orElse(0L);
    ManifestEntry committed = newFile(table, 1, 10);
    table.newAppend().add(List.of(committed)).commit();
    // Another writer's compaction replaces it: the latest snapshot no longer references it.
    table.newRewrite().replace(List.of(committed), List.of(newFile(table, 1, 10))).commit();
    ManifestEntry never = newFile(table, 1, 5);
    io.lagoon.core.table.UncommittedFiles.deleteUnreferenced(table, List.of(committed, never), before);
    assertTrue(exists(table, committed), "a file an earlier snapshot published stays");
    assertTrue(!exists(table, never), "a file no snapshot added goes");
    // Counting only from after the first snapshot, the file is not one of ours to keep.
    io.lagoon.core.table.UncommittedFiles.deleteUnreferenced(table, List.of(committed), before + 1);
    assertTrue(!exists(table, committed));
  }

  /**
   * Changelog files land in the snapshot's changelog list (never among the live data files), are
   * kept by cleanup once a snapshot added them, and go with an operation that lost.
   */
  @Test
  void changelogFilesCommitBesideTheirDataAndGoWithAConflict() throws IOException {
    long before = table.snapshots().latestId().orElse(0L);
    ManifestEntry data = newFile(table, 1, 10);
    ManifestEntry changelog = newChangelogFile(table, 1, 12);
    Snapshot s = table.newAppend().add(List.of(data)).addChangelog(List.of(changelog)).commit().orElseThrow();

    assertEquals(12L, (long) s.changelogRecordCount);
    List<String> listed = new ArrayList<>();
    for (var m : table.manifests().readManifestList(s.changelogManifestList)) {
      for (ManifestEntry e : table.manifests().readManifest(m)) listed.add(e.kind + " " + e.file.fileName);
    }
    assertEquals(List.of("ADD " + changelog.file.fileName), listed);
    assertEquals(Set.of(data.file.fileName), liveNames(table), "a changelog file is not a data file");
    io.lagoon.core.table.UncommittedFiles.deleteUnreferenced(table, List.of(data, changelog), before);
    assertTrue(exists(table, changelog), "a committed changelog file stays after a later failure");

    // A row delta with a changelog that loses its read file to a compaction: nothing of it stays.
    RowDelta update = table.newRowDelta().validateRead(List.of(data)).addFiles(List.of(newFile(table, 1, 1)))
        .addChangelog(List.of(newChangelogFile(table, 1, 2)));
    table.newRewrite().replace(List.of(data), List.of(newFile(table, 1, 10))).commit();
    assertThrows(CommitConflictException.class, update::commit);
    for (ManifestEntry e : update.newDataFiles()) assertFalse(exists(table, e), e.file.fileName);
    assertEquals(2, update.newDataFiles().size(), "its data and changelog files");
    assertEquals(referencedMetadata(table), metadataFiles(table));
  }

  @Test
  void aLostRaceIsPlannedAgainOnTheNewSnapshotAndLeavesNoFilesOfItsOwn() throws IOException {
    ManifestEntry first = newFile(table, 1, 10);
    table.newAppend().add(List.of(first)).commit();
    // Rows of the first file deleted while two other writers append.
    Raced delete = new Raced(table, table.newRowDelta().deletePositions(Map.of(first.file.fileName, new long[] {1, 2})),
        List.of(newFile(table, 1, 5), newFile(table, 2, 5)));

    Snapshot s = table.committer().commit(delete).orElseThrow();

    assertEquals(List.of(1L, 2L, 3L), delete.bases, "each attempt planned on the newest snapshot");
    assertEquals(4, s.id);
    assertEquals(CommitKind.APPEND, s.commitKind);
    assertEquals(3, liveNames(table).size(), "the racers' files stay");
    DeletionVectorIndex index = DeletionVectorIndex.of(table, s);
    assertEquals(2L, (long) index.refOf(first.file.fileName).range.cardinality);
    assertEquals(referencedMetadata(table), metadataFiles(table), "the lost attempts' index files and manifests are gone");
  }

  @Test
  void aConflictFailsAndTakesTheOperationsOwnFilesWithIt() throws IOException {
    ManifestEntry old = newFile(table, 1, 10);
    table.newAppend().add(List.of(old)).commit();
    // A rewrite of the file, planned while it was live...
    ManifestEntry replacement = newFile(table, 1, 10);
    RewriteFiles rewrite = table.newRewrite().replace(List.of(old), List.of(replacement));
    // ...loses it to an overwrite of its partition before it commits.
    table.newOverwrite(p -> p.getInt(0) == 1).commit();
    long before = table.snapshots().latestId().orElseThrow();

    CommitConflictException e = assertThrows(CommitConflictException.class, rewrite::commit);

    assertTrue(e.getMessage().contains("db.t") && e.getMessage().contains(old.file.fileName), e.getMessage());
    assertEquals(before, (long) table.snapshots().latestId().orElseThrow(), "nothing committed");
    assertFalse(exists(table, replacement), "the rewrite's own new file is deleted");
    assertEquals(referencedMetadata(table), metadataFiles(table));
  }

  @Test
  void aRowDeltaWhoseReadFileWasRewrittenIsAConflictNeverAResurrection() throws IOException {
    ManifestEntry read = newFile(table, 1, 10);
    table.newAppend().add(List.of(read)).commit();
    RowDelta update = table.newRowDelta().validateRead(List.of(read))
        .deletePositions(Map.of(read.file.fileName, new long[] {3})).addFiles(List.of(newFile(table, 1, 1)));
    // A compaction rewrote the file the UPDATE read (its row 3 now lives elsewhere).
    table.newRewrite().replace(List.of(read), List.of(newFile(table, 1, 10))).commit();

    CommitConflictException e = assertThrows(CommitConflictException.class, update::commit);

    assertTrue(e.getMessage().contains(read.file.fileName), e.getMessage());
    assertFalse(exists(table, update.newDataFiles().get(0)));
  }

  @Test
  void concurrentDeletesOfOneFileMergeIntoItsVector() throws IOException {
    ManifestEntry f = newFile(table, 1, 10);
    table.newAppend().add(List.of(f)).commit();
    RowDelta mine = table.newRowDelta().deletePositions(Map.of(f.file.fileName, new long[] {7}));
    table.newRowDelta().deletePositions(Map.of(f.file.fileName, new long[] {1, 2})).commit();

    Snapshot s = mine.commit().orElseThrow();

    assertEquals(3L, (long) DeletionVectorIndex.of(table, s).refOf(f.file.fileName).range.cardinality);
  }

  @Test
  void anOverwriteReplacesWhatIsLiveWhenItCommits() throws IOException {
    ManifestEntry a = newFile(table, 1, 10);
    ManifestEntry other = newFile(table, 2, 10);
    table.newAppend().add(List.of(a, other)).commit();
    table.newRowDelta().deletePositions(Map.of(a.file.fileName, new long[] {0})).commit();
    ManifestEntry fresh = newFile(table, 1, 3);
    Raced overwrite = new Raced(table, table.newOverwrite(p -> p.getInt(0) == 1).add(List.of(fresh)),
        List.of(newFile(table, 1, 4)));

    Snapshot s = table.committer().commit(overwrite).orElseThrow();

    assertEquals(CommitKind.OVERWRITE, s.commitKind);
    assertEquals(new TreeSet<>(List.of(fresh.file.fileName, other.file.fileName)), liveNames(table),
        "the racer's file in partition 1 is replaced too; partition 2 stays");
    assertTrue(DeletionVectorIndex.of(table, s).isEmpty(), "the replaced partition's vectors are gone");
  }

  @Test
  void endlessRacesGiveUpAfterTheRetriesAndDeleteTheFiles() throws IOException {
    ManifestEntry mine = newFile(table, 1, 1);
    List<ManifestEntry> racers = new ArrayList<>();
    for (int i = 0; i < 10; i++) racers.add(newFile(table, 1, 1));
    Raced append = new Raced(table, table.newAppend().add(List.of(mine)), racers);

    CommitConflictException e = assertThrows(CommitConflictException.class, () -> table.committer().commit(append));

    assertTrue(e.getMessage().contains("commit.max-retries=3"), e.getMessage());
    assertEquals(4, append.races, "the first attempt and three retries");
    assertFalse(exists(table, mine));
    assertEquals(referencedMetadata(table), metadataFiles(table));
  }

  @Test
  void nothingToChangeCommitsNothing() throws IOException {
    table.newAppend().add(List.of(newFile(table, 1, 1))).commit();
    long id = table.snapshots().latestId().orElseThrow();
    assertEquals(Optional.empty(), table.newAppend().commit());
    assertEquals(Optional.empty(), table.newRowDelta().commit());
    assertEquals(Optional.empty(), table.newRewrite().commit());
    assertEquals(id, (long) table.snapshots().latestId().orElseThrow());
  }

  @Test
  void positionsOutsideTheFileAreRefusedAndNothingIsWritten() throws IOException {
    ManifestEntry f = newFile(table, 1, 4);
    table.newAppend().add(List.of(f)).commit();
    Set<String> metadata = metadataFiles(table);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> table.newRowDelta().deletePositions(Map.of(f.file.fileName, new long[] {4})).commit());
    assertTrue(e.getMessage().contains("position 4") && e.getMessage().contains(f.file.fileName), e.getMessage());
    assertEquals(metadata, metadataFiles(table));
    assertThrows(IllegalArgumentException.class, () -> table(Map.of()).newRowDelta()
        .deletePositions(Map.of("x", new long[] {0})), "vectors must be enabled");
  }
}
