package io.lagoon.core.io;

import io.lagoon.core.types.DataField;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Spark's InternalRow write support with Paimon's timestamp layout: Spark encodes every value
 * (so lists, maps, decimals and field ids stay exactly as Spark writes them); the file schema and
 * the timestamp values follow each column's declared precision.
 */
final class PaimonParquetWriteSupport extends WriteSupport<InternalRow> {
  private final WriteSupport<InternalRow> spark;
  private final List<DataField> fields;
  private MessageType schema;

  PaimonParquetWriteSupport(WriteSupport<InternalRow> spark, List<DataField> fields) {
    this.spark = spark;
    this.fields = fields;
  }

  @Override
  public WriteContext init(Configuration conf) {
    WriteContext ctx = spark.init(conf);
    schema = ParquetTimestampLayout.apply(ctx.getSchema(), fields);
    return new WriteContext(schema, ctx.getExtraMetaData());
  }

  @Override
  public void prepareForWrite(RecordConsumer consumer) {
    // The converting consumer follows every field Spark opens: only worth it when a column needs it.
    spark.prepareForWrite(TimestampRecordConsumer.converts(schema) ? new TimestampRecordConsumer(consumer, schema) : consumer);
  }

  @Override
  public void write(InternalRow row) {
    spark.write(row);
  }

  @Override
  public FinalizedWriteContext finalizeWrite() {
    return spark.finalizeWrite();
  }
}
