package io.lagoon.core.mergetree.write;

import io.lagoon.core.mergetree.KeyComparator;
import io.lagoon.core.mergetree.KeyValueFileWriter;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.mergetree.engine.MergeFunction;
import io.lagoon.core.mergetree.engine.MergeOptions;
import io.lagoon.core.mergetree.engine.RecordOrder;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Writes the records one task sends to one bucket as level-0 files. Records get rising sequence
 * numbers in arrival order; records of one key that arrive together are merged with the table's
 * merge function (keeping removals, as older files may still hold the key), so each file holds
 * unique keys in ascending order. Input that is not sorted by key still lands correctly: a key
 * smaller than the last one starts a new file, that is a new sorted run.
 *
 * <p>For a row-level statement ({@code retractionsFirst}) every retraction it writes is older than
 * every record it adds, whatever task or order they come in: retractions all take the bucket's
 * first sequence number and additions the ones after it. An UPDATE that moves row A to key 2 and
 * row B away from key 2 sends "-D 2" and "+I 2" from different tasks; the addition must win.
 *
 * <p>With {@code changelog-producer}={@code input} every record is also kept unmerged, with its
 * sequence number, in a changelog file that rolls with the data file: streaming readers of the
 * table read the changes from there, as Paimon's writers leave them.
 */
final class BucketWriter {
  private static final int SIZE_CHECK_INTERVAL = 1000;

  private final FileStoreTable table;
  private final Path dir;
  private final KeyComparator keys;
  private final RecordOrder order;
  private final MergeFunction merge;
  private final long targetFileSize;
  private final boolean ignoreDelete;
  private final List<KeyValue> group = new ArrayList<>();
  private final List<DataFileMeta> written = new ArrayList<>();
  private final List<DataFileMeta> changelogWritten = new ArrayList<>();
  private final boolean keepChangelog;
  private KeyValueFileWriter file;
  private KeyValueFileWriter changelog;
  private InternalRow lastWrittenKey;
  private long nextSequence;
  /** Row-level statements: the sequence number of every retraction, below all additions; else -1. */
  private final long retractionSequence;
  /** A statement whose rows must have distinct keys (a MERGE run as an upsert): what it is, else null. */
  private final String uniqueKeysOf;
  private long rowsSinceSizeCheck;

  BucketWriter(FileStoreTable table, Path dir, long firstSequence, KeyComparator keys, RecordOrder order,
               MergeFunction merge, boolean retractionsFirst, String uniqueKeysOf, boolean keepChangelog) {
    this.table = table;
    this.keepChangelog = keepChangelog;
    this.dir = dir;
    this.retractionSequence = retractionsFirst ? firstSequence : -1;
    this.uniqueKeysOf = uniqueKeysOf;
    this.nextSequence = retractionsFirst ? firstSequence + 1 : firstSequence;
    this.keys = keys;
    this.order = order;
    this.merge = merge;
    this.targetFileSize = table.options().targetFileSize();
    this.ignoreDelete = new MergeOptions(table.schema().options()).ignoreDelete();
  }

  /** Adds a record; key and value must not change afterwards (the caller passes copies). */
  void write(InternalRow key, byte kind, InternalRow value) throws IOException {
    if (ignoreDelete && !KeyValue.isAdd(kind)) return; // 'ignore-delete': retractions never land
    long sequence = retractionSequence >= 0 && !KeyValue.isAdd(kind) ? retractionSequence : nextSequence++;
    KeyValue kv = new KeyValue(key, sequence, kind, value);
    if (!group.isEmpty() && keys.compare(key, group.get(0).key()) == 0) {
      if (uniqueKeysOf != null) {
        throw new IllegalStateException("[MERGE_CARDINALITY_VIOLATION] " + uniqueKeysOf + ": more than one source row has "
            + "the primary key " + key + "; a MERGE may apply only one source row to a target row");
      }
      group.add(kv);
      return;
    }
    flushGroup();
    group.add(kv);
  }

  private void flushGroup() throws IOException {
    if (group.isEmpty()) return;
    if (group.size() > 1 && (order.hasSequenceFields() || retractionSequence >= 0)) order.sort(group);
    if (keepChangelog) {
      if (changelog == null) changelog = KeyValueFileWriter.changelog(table, dir);
      for (KeyValue kv : group) changelog.write(kv);
    }
    KeyValue out;
    if (group.size() == 1) {
      out = group.get(0); // as Paimon: a key's only record is stored unmerged
    } else {
      merge.reset();
      for (KeyValue kv : group) merge.add(kv);
      out = merge.storedResult();
    }
    group.clear();
    if (out == null) return;
    if (file != null && lastWrittenKey != null && keys.compare(out.key(), lastWrittenKey) <= 0) {
      closeFile(); // unsorted input: the key starts a new sorted run
    }
    if (file == null) file = new KeyValueFileWriter(table, dir, 0, true);
    file.write(out);
    lastWrittenKey = out.key();
    if (++rowsSinceSizeCheck >= SIZE_CHECK_INTERVAL) {
      rowsSinceSizeCheck = 0;
      if (file.estimatedSize() >= targetFileSize) closeFile();
    }
  }

  /** Writes out the pending key and closes the open file; later records start a new file. */
  void closeFile() throws IOException {
    if (!group.isEmpty()) {
      flushGroup();
    }
    if (file != null) {
      KeyValueFileWriter f = file;
      file = null;
      DataFileMeta meta = f.finish();
      if (meta != null) written.add(meta);
    }
    if (changelog != null) {
      KeyValueFileWriter c = changelog;
      changelog = null;
      DataFileMeta meta = c.finish();
      if (meta != null) changelogWritten.add(meta);
    }
    rowsSinceSizeCheck = 0;
  }

  /** Closes everything and returns the files written, in write order. */
  List<DataFileMeta> finish() throws IOException {
    closeFile();
    return new ArrayList<>(written);
  }

  /** The changelog files written, once {@link #finish} ran. */
  List<DataFileMeta> changelogFiles() {
    return new ArrayList<>(changelogWritten);
  }

  Path dir() {
    return dir;
  }

  /** Deletes every file this writer produced. */
  void abort() {
    if (file != null) file.abort();
    file = null;
    if (changelog != null) changelog.abort();
    changelog = null;
    written.addAll(changelogWritten);
    changelogWritten.clear();
    for (DataFileMeta m : written) {
      try {
        table.io().delete(new Path(dir, m.fileName), false);
      } catch (IOException ignore) {
        // an orphan at worst
      }
    }
    written.clear();
    group.clear();
  }
}
