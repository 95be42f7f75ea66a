package io.lagoon.core.io;

import java.io.IOException;
import org.apache.spark.sql.catalyst.InternalRow;

/** Writes rows into one data file of some format. */
public interface FormatWriter extends AutoCloseable {
  void write(InternalRow row) throws IOException;

  /** Bytes written so far, counting buffered data (used to roll files at the target size). */
  long estimatedSize();

  @Override
  void close() throws IOException;

  /** Removes a partly written file after a failure. */
  void abort();
}
