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
    List<DataField> fields = List.of(new DataField(0, "id", INT), new DataField(1, "v", INT));
    Map<String, String> options = new HashMap<>(Map.of("bucket", "1"));
    if (vectors) options.put("deletion-vectors.enabled", "true");
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
    ManifestEntry e = new ManifestEntry(FileKind.ADD,
        BinaryRows.serialize(new GenericInternalRow(new Object[0]), List.of()), 0, 1, f);
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
}
