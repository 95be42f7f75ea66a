package io.lagoon.core.mergetree;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.engine.KeyValue;
import java.io.Serializable;
import org.apache.hadoop.fs.Path;

/**
 * Opens the records of one data file of a primary-key table, in file order (ascending keys). The
 * key row has the trimmed primary-key fields; the value row has every table column in schema order
 * (columns the source was not asked to read are null). Rows may be reused between records.
 * Sources are built where a SparkSession exists and shipped to executors.
 */
public interface KeyValueSource extends Serializable {
  CloseableIterator<KeyValue> open(Path bucketDir, DataFileMeta file);

  /**
   * A source of the same files that may leave every value column null, for a merge that only
   * needs keys, sequence numbers and row kinds; by default this source itself.
   */
  default KeyValueSource keysOnly() {
    return this;
  }
}
