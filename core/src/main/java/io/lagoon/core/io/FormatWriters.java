package io.lagoon.core.io;

import io.lagoon.core.types.DataField;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.types.StructType;

/** Opens a writer of the table's file format. */
public final class FormatWriters {
  private FormatWriters() {}

  /**
   * {@code schema} is the Spark form of {@code fields} with field ids; the Paimon fields carry what
   * Spark's types lose (timestamp precision decides the Parquet layout).
   */
  public static FormatWriter open(String format, Configuration conf, Path path, StructType schema,
                                  List<DataField> fields, String compression) throws IOException {
    switch (format) {
      case "parquet": return new ParquetFormatWriter(conf, path, schema, fields, compression);
      case "orc": return new OrcFormatWriter(conf, path, schema, compression);
      default: throw new IllegalArgumentException("Unsupported file.format '" + format + "'");
    }
  }
}
