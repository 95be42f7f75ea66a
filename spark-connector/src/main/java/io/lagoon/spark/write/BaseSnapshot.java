package io.lagoon.spark.write;

import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The snapshot a write's tasks start from: the latest when the driver creates their factory. */
final class BaseSnapshot {
  private BaseSnapshot() {}

  /** The latest snapshot's id, -1 for a table without snapshots. */
  static long latest(FileStoreTable table) {
    try {
      return table.snapshots().latestId().orElse(-1L);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the snapshots of " + table.fullName() + ": " + e.getMessage(), e);
    }
  }
}
