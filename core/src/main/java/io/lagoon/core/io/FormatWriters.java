package io.lagoon.core.io;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.types.StructType;

/** Opens a writer of the table's file format. */
public final class FormatWriters {
  private FormatWriters() {}

  public static FormatWriter open(String format, Configuration conf, Path path, StructType schema, String compression)
      throws IOException {
    switch (format) {
      case "parquet": return new ParquetFormatWriter(conf, path, schema, compression);
      case "orc": return new OrcFormatWriter(conf, path, schema, compression);
      default: throw new IllegalArgumentException("Unsupported file.format '" + format + "'");
    }
  }
}
