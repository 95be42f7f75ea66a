package io.lagoon.core.mergetree;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.io.FormatWriter;
import io.lagoon.core.io.FormatWriters;
import io.lagoon.core.io.StatsCollector;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.List;
import io.lagoon.core.table.DataFilePaths;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Writes one sorted run of key-value records (ascending, unique keys) into one data file of a
 * primary-key table, collecting what its manifest entry needs: first and last key, key and value
 * stats, sequence range and the number of retract records, and the file's indexes over the value
 * columns (the table's columns, as Paimon indexes them), placed as an append file's are.
 */
public final class KeyValueFileWriter {
  private final FileStoreTable table;
  private final KeyValueLayout layout;
  private final Path path;
  private final int level;
  private final FormatWriter writer;
  private final StatsCollector keyStats;
  private final StatsCollector valueStats;
  private final KeyValueRow physical;
  private final boolean keysDetached;
  private final Path bucketDir;
  private final io.lagoon.core.fileindex.FileIndexBuilder index;
  private InternalRow firstKey;
  private InternalRow lastKey;
  /** Where the last key is copied when the caller may reuse its rows. */
  private final LastKey lastKeyCopy;
  private long minSeq = Long.MAX_VALUE;
  private long maxSeq = Long.MIN_VALUE;
  private long rows;
  private long deletes;

  public KeyValueFileWriter(FileStoreTable table, Path bucketDir, int level) throws IOException {
    this(table, bucketDir, level, false);
  }

  /**
   * @param keysDetached whether the key rows written are never changed afterwards (the writer
   *     then keeps them rather than copying the last key of every record)
   */
  public KeyValueFileWriter(FileStoreTable table, Path bucketDir, int level, boolean keysDetached) throws IOException {
    this(table, bucketDir, level, keysDetached, false);
  }

  /**
   * A changelog file ({@code changelog-producer}={@code input}): the records as a write received
   * them, keys repeating, in a level-0 key-value file of Paimon's layout named and formatted by
   * the {@code changelog-file.*} options; no file index (readers of changes never skip by one).
   */
  public static KeyValueFileWriter changelog(FileStoreTable table, Path bucketDir) throws IOException {
    return new KeyValueFileWriter(table, bucketDir, 0, true, true);
  }

  private KeyValueFileWriter(FileStoreTable table, Path bucketDir, int level, boolean keysDetached, boolean changelog)
      throws IOException {
    this.keysDetached = keysDetached;
    this.table = table;
    this.layout = new KeyValueLayout(table.schema());
    this.lastKeyCopy = keysDetached ? null : new LastKey(layout.keyFields());
    this.level = level;
    String format = changelog ? table.options().changelogFileFormat() : table.options().fileFormat();
    DataFilePaths.DataFileNames names = new DataFilePaths.DataFileNames();
    this.path = new Path(bucketDir, changelog ? names.next(table.options().changelogFilePrefix(), format)
        : names.next(format));
    this.writer = FormatWriters.open(format, withoutDictionaryOnUniqueColumns(table, layout), path, layout.sparkSchema(),
        layout.physicalFields(), table.options().fileCompression());
    this.keyStats = new StatsCollector(layout.keyTypes(), writer, 0);
    this.valueStats = new StatsCollector(layout.valueTypes(), writer, layout.valueStart());
    this.physical = new KeyValueRow(layout.keyArity(), layout.valueFields().size());
    this.bucketDir = bucketDir;
    this.index = changelog ? null : io.lagoon.core.fileindex.FileIndexBuilder.of(table.schema());
  }

  /**
   * Parquet writes every column with a dictionary at first; on a column whose values never repeat
   * in a file (the sequence number, a one-column key and its value column) the dictionary only
   * costs a hash lookup per value until it gives up. Those columns are written plain, unless the
   * table says otherwise ({@code parquet.enable.dictionary#<column>}). Any reader reads either.
   */
  private static org.apache.hadoop.conf.Configuration withoutDictionaryOnUniqueColumns(FileStoreTable table,
                                                                                       KeyValueLayout layout) {
    org.apache.hadoop.conf.Configuration conf = table.options().writerConf(table.io().hadoopConf());
    java.util.List<String> unique = new java.util.ArrayList<>(java.util.List.of(KeyValueLayout.SEQUENCE_NUMBER));
    if (layout.keyArity() == 1) {
      String key = layout.keyFields().get(0).name();
      unique.add(key);
      unique.add(key.startsWith(KeyValueLayout.KEY_PREFIX) ? key.substring(KeyValueLayout.KEY_PREFIX.length())
          : KeyValueLayout.KEY_PREFIX + key);
    }
    for (String c : unique) {
      String k = "parquet.enable.dictionary#" + c;
      if (conf.get(k) == null) conf.setBoolean(k, false);
    }
    return conf;
  }

  public Path path() {
    return path;
  }

  public void write(KeyValue kv) throws IOException {
    InternalRow key = kv.key();
    InternalRow value = kv.value();
    writer.write(physical.replace(kv));
    keyStats.update(key);
    valueStats.update(value);
    if (index != null) index.add(value);
    if (firstKey == null) firstKey = keysDetached ? key : key.copy();
    if (keysDetached) lastKey = key;
    else lastKeyCopy.copyFrom(key); // the caller may reuse its rows
    minSeq = Math.min(minSeq, kv.sequence());
    maxSeq = Math.max(maxSeq, kv.sequence());
    rows++;
    if (kv.isRetract()) deletes++;
  }

  public long estimatedSize() {
    return writer.estimatedSize();
  }

  public long rowCount() {
    return rows;
  }

  /** Closes the file and describes it; an empty run yields no file. */
  public DataFileMeta finish() throws IOException {
    InternalRow last = keysDetached ? lastKey : lastKeyCopy.row();
    writer.close();
    if (rows == 0) {
      table.io().delete(path, false);
      return null;
    }
    long size = table.io().status(path).getLen();
    io.lagoon.core.fileindex.FileIndexes.Placement placed = index == null
        ? new io.lagoon.core.fileindex.FileIndexes.Placement(null, List.of())
        : io.lagoon.core.fileindex.FileIndexes.place(table, bucketDir, path.getName()
            + io.lagoon.core.fileindex.FileIndexes.SUFFIX, index.finish());
    return new DataFileMeta(path.getName(), size, rows,
        BinaryRows.serialize(firstKey, layout.keyTypes()), BinaryRows.serialize(last, layout.keyTypes()),
        keyStats.toSimpleStats(), valueStats.toSimpleStats(), minSeq, maxSeq, table.schema().id(), level,
        placed.extraFiles(), DataFileMeta.localNowMillis(), deletes, placed.embedded(), level == 0 ? 0 : 1, null, null);
  }

  public void abort() {
    writer.abort();
  }
}
