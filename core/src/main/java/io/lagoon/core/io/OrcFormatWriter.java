package io.lagoon.core.io;

import java.io.IOException;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.datasources.orc.OrcOutputWriter;
import org.apache.spark.sql.execution.datasources.orc.OrcUtils;
import org.apache.spark.sql.types.StructType;

/**
 * Writes ORC through Spark's own ORC output writer. ORC does not report its size while writing,
 * so the size used for rolling is estimated from the raw bytes of the rows seen.
 */
public final class OrcFormatWriter implements FormatWriter {
  private static final int BATCH_SIZE = 1024;
  private final OrcOutputWriter writer;
  private final Path path;
  private final Configuration conf;
  private final RowSizeEstimator estimator;
  private long rawBytes;

  public OrcFormatWriter(Configuration base, Path path, StructType schema, String compression) {
    this.path = path;
    this.conf = new Configuration(base);
    conf.set("orc.compress", orcCodec(compression));
    conf.set("orc.mapred.output.schema", OrcUtils.orcTypeDescription(schema).toString());
    this.writer = new OrcOutputWriter(path.toString(), schema,
        new TaskAttemptContextImpl(conf, new TaskAttemptID()), BATCH_SIZE);
    this.estimator = new RowSizeEstimator(schema);
  }

  static String orcCodec(String name) {
    switch (name) {
      case "none": case "uncompressed": return "NONE";
      case "snappy": case "zlib": case "lz4": case "zstd": return name.toUpperCase(Locale.ROOT);
      default: throw new IllegalArgumentException("Unsupported file.compression '" + name
          + "' for orc (zstd, snappy, zlib, lz4, none)");
    }
  }

  @Override
  public void write(InternalRow row) {
    writer.write(row);
    rawBytes += estimator.estimate(row);
  }

  @Override
  public long estimatedSize() {
    return rawBytes / RowSizeEstimator.COMPRESSION_GUESS;
  }

  @Override
  public void close() {
    writer.close();
  }

  @Override
  public void abort() {
    try {
      writer.close();
    } catch (RuntimeException ignore) {
      // best effort
    }
    try {
      path.getFileSystem(conf).delete(path, false);
    } catch (IOException ignore) {
      // an orphan at worst
    }
  }
}
