package io.lagoon.core.compaction;

import java.io.IOException;
import java.io.Serializable;
import java.util.Optional;

/**
 * The compaction of one bucket (or one group of an append bucket's files), planned on the driver
 * against a snapshot and run wherever its files can be read: in the driver after a write, or on an
 * executor as one task of the compaction procedure's Spark job. It carries everything it needs
 * (files, vectors, a reader built on the driver); its result goes back to the driver, which
 * commits every task's result in one snapshot.
 */
public interface CompactionTask extends Serializable {
  /** @return what it replaced and wrote, or empty when the files needed nothing after all */
  Optional<CompactionResult> run() throws IOException;

  /** Partition path and bucket, for job descriptions and errors. */
  String describe();

  /** Bytes of the files it reads. */
  long inputBytes();
}
