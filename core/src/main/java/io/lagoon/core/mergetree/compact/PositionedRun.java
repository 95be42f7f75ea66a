package io.lagoon.core.mergetree.compact;

import io.lagoon.core.deletionvectors.BucketVectors;
import io.lagoon.core.deletionvectors.DeletionVector;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.CloseableIterator;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.engine.KeyValue;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The live records of one sorted run of a bucket in deletion-vector mode: rows marked in their
 * file's vector are skipped, and the file and row position of the record last returned are known,
 * so a compaction can mark it deleted when a newer record supersedes it. The run can be limited to
 * a key range ({@link #restrict}); it then stops before the first key above the range, and a later
 * range goes on from there, so one run serves the key sections of a compaction in order. Files
 * wholly below the range are never opened.
 */
final class PositionedRun implements CloseableIterator<KeyValue> {
  private final KeyValueSource source;
  private final Path bucketDir;
  private final List<DataFileMeta> files;
  private final BucketVectors vectors;
  private final FileKeys keys;
  private int nextFile;
  private CloseableIterator<KeyValue> open;
  private DataFileMeta openFile;
  private DeletionVector openVector;
  /** Position in the open file of the next row it returns. */
  private long openPosition;
  private KeyValue peeked;
  private long peekedPosition;
  private String currentFile;
  private long currentPosition = -1;
  private InternalRow min;
  private InternalRow max;
  /** Whether the run has reached {@link #min}: keys ascend, so later ones need no check. */
  private boolean pastMin = true;

  /**
   * @param vectors the bucket's vectors (rows they mark are skipped), or null for none
   */
  PositionedRun(KeyValueSource source, Path bucketDir, List<DataFileMeta> files, BucketVectors vectors,
                FileKeys keys) {
    this.source = source;
    this.bucketDir = bucketDir;
    this.files = files;
    this.vectors = vectors;
    this.keys = keys;
  }

  /** Limits the run to keys in [min, max] (null: unbounded); ranges must come in ascending order. */
  void restrict(InternalRow min, InternalRow max) {
    this.min = min;
    this.max = max;
    this.pastMin = min == null;
  }

  /** The data file of the record last returned by {@link #next()}. */
  String currentFile() {
    return currentFile;
  }

  /** The row position, in its data file, of the record last returned by {@link #next()}. */
  long currentPosition() {
    return currentPosition;
  }

  @Override
  public boolean hasNext() {
    while (peeked == null) {
      if (!advance()) return false;
    }
    return max == null || keys.comparator().compare(peeked.key(), max) <= 0;
  }

  @Override
  public KeyValue next() {
    if (!hasNext()) throw new NoSuchElementException();
    KeyValue out = peeked;
    peeked = null;
    currentFile = openFile.fileName;
    currentPosition = peekedPosition;
    return out;
  }

  /** Reads the next live record at or above the range into {@code peeked}; false at the end. */
  private boolean advance() {
    while (true) {
      if (open == null && !openNextFile()) return false;
      if (!open.hasNext()) {
        closeOpen();
        continue;
      }
      KeyValue kv = open.next();
      long pos = openPosition++;
      if (openVector != null && openVector.isDeleted(pos)) continue;
      if (!pastMin) {
        if (keys.comparator().compare(kv.key(), min) < 0) continue;
        pastMin = true;
      }
      peeked = kv;
      peekedPosition = pos;
      return true;
    }
  }

  private boolean openNextFile() {
    while (nextFile < files.size()) {
      DataFileMeta f = files.get(nextFile++);
      if (!pastMin && keys.comparator().compare(keys.maxKey(f), min) < 0) continue;
      openFile = f;
      openVector = vectors == null ? null : vectors.of(f.fileName);
      openPosition = 0;
      open = source.open(bucketDir, f);
      return true;
    }
    return false;
  }

  private void closeOpen() {
    if (open != null) {
      CloseableIterator<KeyValue> c = open;
      open = null;
      c.close();
    }
  }

  @Override
  public void close() {
    peeked = null;
    closeOpen();
    nextFile = files.size();
  }
}
