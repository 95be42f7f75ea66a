package io.lagoon.core.io;

import io.lagoon.core.types.DataField;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's InternalRow write support with Paimon's timestamp layout: Spark encodes every value
 * (so lists, maps, decimals and field ids stay exactly as Spark writes them); the file schema and
 * the timestamp values follow each column's declared precision. Rows of a flat schema skip
 * Spark's per-field record calls and go to the columns directly ({@link FlatColumnWrites}), which
 * writes the same file.
 */
final class PaimonParquetWriteSupport extends WriteSupport<InternalRow> {
  private final WriteSupport<InternalRow> spark;
  private final List<DataField> fields;
  private final StructType sparkSchema;
  private final boolean direct;
  private MessageType schema;
  private FlatColumnWrites columns;

  /** @param direct whether rows of a flat schema go to the columns directly (false: always through Spark) */
  PaimonParquetWriteSupport(WriteSupport<InternalRow> spark, List<DataField> fields, StructType sparkSchema,
                            boolean direct) {
    this.spark = spark;
    this.fields = fields;
    this.sparkSchema = sparkSchema;
    this.direct = direct;
  }

  @Override
  public WriteContext init(Configuration conf) {
    WriteContext ctx = spark.init(conf);
    schema = ParquetTimestampLayout.apply(ctx.getSchema(), fields);
    return new WriteContext(schema, ctx.getExtraMetaData());
  }

  @Override
  public void prepareForWrite(RecordConsumer consumer) {
    columns = direct ? FlatColumnWrites.of(consumer, schema, sparkSchema) : null;
    if (columns != null) return; // Spark's write support is not called for this row group's rows
    // The converting consumer follows every field Spark opens: only worth it when a column needs it.
    spark.prepareForWrite(TimestampRecordConsumer.converts(schema) ? new TimestampRecordConsumer(consumer, schema) : consumer);
  }

  boolean writesDirectly() {
    return columns != null;
  }

  @Override
  public void write(InternalRow row) {
    if (columns != null) columns.write(row);
    else spark.write(row);
  }

  @Override
  public FinalizedWriteContext finalizeWrite() {
    return spark.finalizeWrite();
  }
}
