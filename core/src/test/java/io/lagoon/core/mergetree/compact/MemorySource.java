package io.lagoon.core.mergetree.compact;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.CloseableIterator;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.engine.KeyValue;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.Path;

/**
 * A key-value source serving records registered per file name, standing in for the real file
 * reader. It counts open and closed iterators so tests can check that compaction closes them.
 */
class MemorySource implements KeyValueSource {
  final Map<String, List<KeyValue>> files = new ConcurrentHashMap<>();
  int opened;
  int closed;

  void put(String fileName, List<KeyValue> records) {
    files.put(fileName, new ArrayList<>(records));
  }

  List<KeyValue> records(String fileName) {
    List<KeyValue> r = files.get(fileName);
    if (r == null) throw new IllegalStateException("no records registered for " + fileName);
    return r;
  }

  @Override
  public CloseableIterator<KeyValue> open(Path bucketDir, DataFileMeta file) {
    Iterator<KeyValue> it = records(file.fileName).iterator();
    opened++;
    return new CloseableIterator<>() {
      boolean done;

      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public KeyValue next() {
        return it.next();
      }

      @Override
      public void close() {
        if (!done) closed++;
        done = true;
      }
    };
  }
}
