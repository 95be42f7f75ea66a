package io.lagoon.core.mergetree;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.CloseableIterator;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.engine.KeyValue;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.Path;

/**
 * Reads the files of one sorted run back to back, opening each only when the previous one is
 * used up, so a merge holds one open file per run rather than one per file.
 */
public final class RunIterator implements CloseableIterator<KeyValue> {
  private final KeyValueSource source;
  private final Path bucketDir;
  private final Iterator<DataFileMeta> files;
  private CloseableIterator<KeyValue> current;

  public RunIterator(KeyValueSource source, Path bucketDir, List<DataFileMeta> files) {
    this.source = source;
    this.bucketDir = bucketDir;
    this.files = files.iterator();
  }

  @Override
  public boolean hasNext() {
    while (current == null || !current.hasNext()) {
      close();
      if (!files.hasNext()) return false;
      current = source.open(bucketDir, files.next());
    }
    return true;
  }

  @Override
  public KeyValue next() {
    if (!hasNext()) throw new NoSuchElementException();
    return current.next();
  }

  @Override
  public void close() {
    if (current != null) {
      CloseableIterator<KeyValue> c = current;
      current = null;
      c.close();
    }
  }
}
