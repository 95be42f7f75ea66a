package io.lagoon.core.write;

import io.lagoon.core.fileindex.FileIndexBuilder;
import io.lagoon.core.fileindex.FileIndexes;
import io.lagoon.core.io.FormatWriter;
import io.lagoon.core.io.FormatWriters;
import io.lagoon.core.io.StatsCollector;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.SimpleStats;
import io.lagoon.core.table.DataFilePaths;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.UncommittedFiles;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.SparkTypes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Writes rows of one bucket into data files, starting a new file when the current one reaches
 * the table's {@code target-file-size}. Each closed file becomes a {@link DataFileMeta}.
 */
public final class RollingFileWriter {
  private static final int SIZE_CHECK_INTERVAL = 1000;

  private final FileStoreTable table;
  private final Path bucketDir;
  private final StructType fileSchema;
  private final List<PaimonType> types;
  private final DataFilePaths.DataFileNames names = new DataFilePaths.DataFileNames();
  private final long targetSize;
  private final List<DataFileMeta> done = new ArrayList<>();
  private long sequence;

  private FormatWriter current;
  private Path currentPath;
  private StatsCollector stats;
  private long rows;
  private long firstSequence;
  /** The open file's indexes ({@code file-index.*} options), or null when the table has none. */
  private final FileIndexBuilder index;

  public RollingFileWriter(FileStoreTable table, Path bucketDir) {
    this(table, bucketDir, 0);
  }

  /** @param firstSequence the sequence number of the first row written */
  public RollingFileWriter(FileStoreTable table, Path bucketDir, long firstSequence) {
    this.sequence = firstSequence;
    this.table = table;
    this.bucketDir = bucketDir;
    this.fileSchema = withFieldIds(table.schema().fields());
    this.types = new ArrayList<>();
    for (DataField f : table.schema().fields()) types.add(f.type());
    this.targetSize = table.options().targetFileSize();
    this.index = FileIndexBuilder.of(table.schema());
  }

  /** The Spark schema of a data file, carrying Paimon field ids as Parquet field ids. */
  public static StructType withFieldIds(List<DataField> fields) {
    StructType base = SparkTypes.toSpark(fields);
    StructField[] out = new StructField[fields.size()];
    for (int i = 0; i < out.length; i++) {
      StructField f = base.fields()[i];
      Metadata md = new MetadataBuilder().withMetadata(f.metadata())
          .putLong(SparkTypes.PARQUET_FIELD_ID_KEY, fields.get(i).id()).build();
      out[i] = new StructField(f.name(), f.dataType(), f.nullable(), md);
    }
    return new StructType(out);
  }

  public void write(InternalRow row) throws IOException {
    if (current == null) open();
    current.write(row);
    stats.update(row);
    if (index != null) index.add(row);
    rows++;
    sequence++;
    if (rows % SIZE_CHECK_INTERVAL == 0 && current.estimatedSize() >= targetSize) closeCurrent();
  }

  private void open() throws IOException {
    String format = table.options().fileFormat();
    currentPath = new Path(bucketDir, names.next(format));
    current = FormatWriters.open(format, table.options().writerConf(table.io().hadoopConf()), currentPath, fileSchema,
        table.schema().fields(), table.options().fileCompression());
    stats = new StatsCollector(types, current, 0);
    rows = 0;
    firstSequence = sequence;
  }

  private void closeCurrent() throws IOException {
    current.close();
    long size = table.io().status(currentPath).getLen();
    SimpleStats valueStats = stats.toSimpleStats();
    FileIndexes.Placement placed = index == null ? new FileIndexes.Placement(null, List.of())
        : FileIndexes.place(table, bucketDir, currentPath.getName() + FileIndexes.SUFFIX, index.finish());
    done.add(DataFileMeta.forAppend(currentPath.getName(), size, rows, valueStats, firstSequence, sequence - 1,
        table.schema().id(), placed.embedded(), placed.extraFiles()));
    current = null;
  }

  /** Closes the open file and returns every file written. */
  public List<DataFileMeta> finish() throws IOException {
    if (current != null) closeCurrent();
    return done;
  }

  /** Deletes everything written, for a failed task. */
  public void abort() {
    if (current != null) current.abort();
    current = null;
    UncommittedFiles.deleteInBucket(table, bucketDir, done);
    done.clear();
  }
}
