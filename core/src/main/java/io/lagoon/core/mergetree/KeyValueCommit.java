package io.lagoon.core.mergetree;

import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.List;
import java.util.function.Predicate;
import org.apache.spark.sql.catalyst.InternalRow;

/** TEMPORARY STUB of the core commit's API so the Spark side compiles; the real class replaces it. */
public final class KeyValueCommit {
  private KeyValueCommit() {}

  public static void commit(FileStoreTable table, List<KeyValueWriteResult> results,
                            Predicate<InternalRow> overwritePartitions) throws IOException {
    throw new UnsupportedOperationException("primary-key table commit not available in this build");
  }
}
