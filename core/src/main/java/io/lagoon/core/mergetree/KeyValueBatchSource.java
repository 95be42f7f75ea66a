package io.lagoon.core.mergetree;

import io.lagoon.core.manifest.DataFileMeta;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Opens one data file of a primary-key table as column batches, in file order (ascending keys):
 * the key columns, {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND}, then the value columns read. A
 * batch is valid until the next one is asked for (readers reuse them).
 */
public interface KeyValueBatchSource {
  /** The file's batches; closing the iterator, when it is {@link java.io.Closeable}, closes the file. */
  java.util.Iterator<ColumnarBatch> openBatches(Path bucketDir, DataFileMeta file);

  /** Columns before {@code _SEQUENCE_NUMBER} in every batch. */
  int keyArity();

  /** The error for a file that failed while being read, naming it. */
  RuntimeException readFailure(Path file, RuntimeException cause);
}
