package io.lagoon.spark.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.SimpleStats;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import java.nio.file.Files;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cleanup of a failed batch write. Spark aborts a write after a failed job and also after its
 * commit threw, and a commit can throw after it published a snapshot (a deletion-vector write whose
 * rows are committed but whose compactions kept losing races): then the committed files must stay,
 * and only the others go.
 */
class WriteAbortTest extends LagoonSparkTest {
  private static FileStoreTable table;

  @BeforeAll
  static void table() throws Exception {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.abort");
    sql("CREATE TABLE lake.abort.t (id INT)");
    table = FileStoreTable.load(new FileIO(spark.sparkContext().hadoopConfiguration()),
        new Path(warehouse.resolve("abort.db/t").toUri().toString()), "abort.t");
  }

  /** An ADD entry of a new file (a placeholder on disk: these tests never read it). */
  private static ManifestEntry newFile() throws Exception {
    DataFileMeta f = DataFileMeta.forAppend("data-" + UUID.randomUUID() + "-0.parquet", 1, 1, SimpleStats.EMPTY, 0, 0, 0);
    ManifestEntry e = new ManifestEntry(FileKind.ADD,
        BinaryRows.serialize(new GenericInternalRow(new Object[0]), List.of()), 0, -1, f);
    java.nio.file.Path local = local(e);
    Files.createDirectories(local.getParent());
    Files.write(local, new byte[] {1});
    return e;
  }

  private static java.nio.file.Path local(ManifestEntry e) {
    return java.nio.file.Path.of(table.paths().dataFile(e).toUri());
  }

  @Test
  void aCommitThatThrowsAfterPublishingKeepsWhatItPublishedAndTheAbortDeletesNothingMore() throws Exception {
    ManifestEntry published = newFile();
    ManifestEntry other = newFile();
    WriteCommit commits = new WriteCommit(table);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> commits.run(List.of(published, other), () -> {
      table.newAppend().add(List.of(published)).commit();
      throw new IllegalStateException("failed after publishing");
    }));
    assertEquals("failed after publishing", e.getMessage());
    assertTrue(Files.exists(local(published)), "the committed file stays");
    assertTrue(!Files.exists(local(other)), "the file no snapshot references goes");
    commits.abort(List.of(published, other));
    assertTrue(Files.exists(local(published)), "Spark's abort after the failed commit keeps it too");
  }

  @Test
  void aCommitThatFailsBeforePublishingAndAFailedJobLeaveNoFile() throws Exception {
    ManifestEntry a = newFile();
    WriteCommit commits = new WriteCommit(table);
    assertThrows(IllegalStateException.class, () -> commits.run(List.of(a), () -> {
      throw new IllegalStateException("refused");
    }));
    assertTrue(!Files.exists(local(a)));

    ManifestEntry b = newFile();
    new WriteCommit(table).abort(List.of(b)); // the job failed: no commit ran
    assertTrue(!Files.exists(local(b)));
  }
}
