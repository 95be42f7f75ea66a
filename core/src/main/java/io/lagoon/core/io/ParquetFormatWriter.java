package io.lagoon.core.io;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.datasources.parquet.ParquetWriteSupport;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructType;

/**
 * Writes Parquet through Spark's own InternalRow write support, configured for the layout Paimon
 * reads: standard 3-level lists and maps, field ids, and timestamps stored by their declared
 * precision ({@link PaimonParquetWriteSupport}).
 */
public final class ParquetFormatWriter implements FormatWriter {
  private final ParquetWriter<InternalRow> writer;
  private final Path path;
  private final Configuration conf;
  private final StructType schema;
  private final List<DataField> fields;
  private final PaimonParquetWriteSupport support;
  /** Null when the codec is not zstd or Parquet's own compressor stayed. */
  private final ZstdPageCompressor zstd;

  /** {@code schema} is the Spark form of {@code fields} (same order), with field ids in its metadata. */
  public ParquetFormatWriter(Configuration base, Path path, StructType schema, List<DataField> fields, String compression)
      throws IOException {
    this(base, path, schema, fields, compression, true);
  }

  /** @param direct whether rows of a flat schema skip Spark's record calls ({@link FlatColumnWrites}) */
  ParquetFormatWriter(Configuration base, Path path, StructType schema, List<DataField> fields, String compression,
                      boolean direct) throws IOException {
    this.path = path;
    this.schema = schema;
    this.fields = fields;
    this.conf = new Configuration(base);
    conf.set("org.apache.spark.sql.parquet.row.attributes", schema.json());
    conf.set("spark.sql.parquet.writeLegacyFormat", "false");
    // Spark hands over every timestamp as micros; PaimonParquetWriteSupport stores it by precision.
    conf.set("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS");
    conf.set("spark.sql.parquet.fieldId.write.enabled", "true");
    Builder builder = new Builder(path, conf, fields, schema, direct);
    ParquetWriterOptions.apply(builder, conf);
    CompressionCodecName codec = codec(compression);
    this.writer = builder
        .withCompressionCodec(codec)
        .withWriteMode(ParquetFileWriter.Mode.CREATE)
        .withRowGroupSize(conf.getLong("parquet.block.size", ParquetWriter.DEFAULT_BLOCK_SIZE))
        .withPageSize(conf.getInt("parquet.page.size", ParquetWriter.DEFAULT_PAGE_SIZE))
        .withConf(conf)
        .build();
    this.support = builder.support;
    try {
      this.zstd = codec == CompressionCodecName.ZSTD
          ? ZstdPageCompressor.install(writer, conf.getInt(ZSTD_LEVEL, 3), conf.getInt(ZSTD_WORKERS, 0)) : null;
    } catch (IOException e) {
      abort();
      throw e;
    }
  }

  /** Whether rows go straight to the columns (a flat schema), for tests. */
  boolean writesDirectly() {
    return support.writesDirectly();
  }

  /** Parquet's keys for the zstd level (its default 3) and worker threads. */
  public static final String ZSTD_LEVEL = "parquet.compression.codec.zstd.level";
  private static final String ZSTD_WORKERS = "parquet.compression.codec.zstd.workers";

  static CompressionCodecName codec(String name) {
    switch (name) {
      case "none": case "uncompressed": return CompressionCodecName.UNCOMPRESSED;
      case "snappy": return CompressionCodecName.SNAPPY;
      case "gzip": return CompressionCodecName.GZIP;
      case "lz4": return CompressionCodecName.LZ4_RAW;
      case "zstd": return CompressionCodecName.ZSTD;
      default: throw new IllegalArgumentException("Unsupported file.compression '" + name
          + "' for parquet (zstd, snappy, gzip, lz4, none)");
    }
  }

  @Override
  public void write(InternalRow row) throws IOException {
    writer.write(row);
  }

  @Override
  public long estimatedSize() {
    return writer.getDataSize();
  }

  @Override
  public void close() throws IOException {
    try {
      writer.close();
    } finally {
      if (zstd != null) zstd.release();
    }
  }

  @Override
  public boolean footerKeepsStats(PaimonType type) {
    return ParquetFooterStats.covers(type);
  }

  @Override
  public FooterStats footerStats(int column) {
    return ParquetFooterStats.of(writer.getFooter(), schema.fields()[column].name(), fields.get(column).type());
  }

  @Override
  public void abort() {
    try {
      close();
    } catch (IOException | RuntimeException ignore) {
      // best effort
    }
    try {
      path.getFileSystem(conf).delete(path, false);
    } catch (IOException ignore) {
      // leaves an orphan file at worst, never a visible one
    }
  }

  private static final class Builder extends ParquetWriter.Builder<InternalRow, Builder> {
    private final List<DataField> fields;
    private final StructType schema;
    private final boolean direct;
    private PaimonParquetWriteSupport support;

    Builder(Path path, Configuration conf, List<DataField> fields, StructType schema, boolean direct) throws IOException {
      super(HadoopOutputFile.fromPath(path, conf));
      this.fields = fields;
      this.schema = schema;
      this.direct = direct;
      LagoonValuesWriters.install(this);
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<InternalRow> getWriteSupport(Configuration conf) {
      // Paimon stores dates and timestamps in the proleptic Gregorian calendar, never rebased;
      // Spark's write support reads its rebase mode from the active SQL conf when constructed.
      SQLConf sqlConf = new SQLConf();
      sqlConf.setConfString("spark.sql.parquet.datetimeRebaseModeInWrite", "CORRECTED");
      sqlConf.setConfString("spark.sql.parquet.int96RebaseModeInWrite", "CORRECTED");
      support = new PaimonParquetWriteSupport(SQLConf.withExistingConf(sqlConf, ParquetWriteSupport::new), fields, schema,
          direct);
      return support;
    }
  }
}
