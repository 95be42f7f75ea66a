package io.lagoon.core.mergetree.read;

import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.TableOptions;
import java.io.IOException;
import java.io.InputStream;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.Path;

/**
 * Deletion vectors are not read yet. A primary-key table in deletion-vector mode hides level-0
 * files from readers (they become visible through compaction) and marks stale rows of higher
 * levels in vectors: without vectors those rows would come back, so a snapshot that has any is
 * refused. A snapshot's index manifest also lists dynamic-bucket hash indexes, which do not
 * change what a read returns, so only {@code DELETION_VECTORS} entries count.
 */
public final class DeletionVectorGuard {
  private static final String DV_INDEX_TYPE = "DELETION_VECTORS";

  private DeletionVectorGuard() {}

  /** Fails, naming the feature, when the snapshot has deletion vectors. */
  public static void check(FileStoreTable table, Snapshot snapshot) throws IOException {
    if (snapshot.indexManifest == null) return;
    Path p = new Path(new Path(table.dir(), "manifest"), snapshot.indexManifest);
    try (InputStream in = table.io().fs(p).open(p);
         DataFileStream<GenericRecord> s = new DataFileStream<>(in, new GenericDatumReader<>())) {
      while (s.hasNext()) {
        GenericRecord r = s.next();
        Object type = r.get("_INDEX_TYPE");
        if (type != null && DV_INDEX_TYPE.equals(type.toString())) {
          throw new UnsupportedOperationException("Table " + table.fullName() + " has deletion vectors (snapshot "
              + snapshot.id + ", option '" + TableOptions.DELETION_VECTORS_ENABLED + "'): this Lagoon version cannot read deletion vectors yet, "
              + "and reading without them would return deleted or outdated rows");
        }
      }
    }
  }
}
