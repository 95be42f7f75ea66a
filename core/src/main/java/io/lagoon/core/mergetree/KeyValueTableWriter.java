package io.lagoon.core.mergetree;

import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import org.apache.spark.sql.catalyst.InternalRow;

/** TEMPORARY STUB of the core writer's API so the Spark side compiles; the real class replaces it. */
public final class KeyValueTableWriter {
  public KeyValueTableWriter(FileStoreTable table, long baseSnapshotId, KeyValueSource source) {
  }

  public void write(InternalRow row) throws IOException {
    throw new UnsupportedOperationException("primary-key table writer not available in this build");
  }

  public KeyValueWriteResult finish() throws IOException {
    throw new UnsupportedOperationException("primary-key table writer not available in this build");
  }

  public void abort() {
  }
}
