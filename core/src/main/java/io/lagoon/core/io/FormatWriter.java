package io.lagoon.core.io;

import io.lagoon.core.types.PaimonType;
import java.io.IOException;
import org.apache.spark.sql.catalyst.InternalRow;

/** Writes rows into one data file of some format. */
public interface FormatWriter extends AutoCloseable {
  void write(InternalRow row) throws IOException;

  /** Bytes written so far, counting buffered data (used to roll files at the target size). */
  long estimatedSize();

  @Override
  void close() throws IOException;

  /**
   * Whether the written file's footer will hold exact stats of a top-level column of this type; a
   * writer then reads them with {@link #footerStats} after close instead of collecting them per row.
   */
  default boolean footerKeepsStats(PaimonType type) {
    return false;
  }

  /**
   * After close: the footer's stats of top-level column {@code column} (one whose type it keeps),
   * or null when the footer has none for it.
   */
  default FooterStats footerStats(int column) {
    throw new UnsupportedOperationException("this format keeps no column stats in its footer");
  }

  /** Removes a partly written file after a failure. */
  void abort();
}
