package io.lagoon.core.write;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.SparkTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.unsafe.types.UTF8String;

/** Takes the partition of a table row (its row and serialized bytes). */
public final class PartitionExtractor {
  private final List<DataField> fields;
  private final int[] indexes;
  private final List<PaimonType> types = new ArrayList<>();
  private final DataType[] sparkTypes;
  private final String defaultName;

  public PartitionExtractor(TableSchema schema, String defaultPartitionName) {
    this.fields = schema.partitionFields();
    this.indexes = new int[fields.size()];
    this.sparkTypes = new DataType[fields.size()];
    for (int i = 0; i < indexes.length; i++) {
      indexes[i] = schema.fieldIndex(fields.get(i).name());
      types.add(fields.get(i).type());
      sparkTypes[i] = SparkTypes.toSpark(fields.get(i).type());
    }
    this.defaultName = defaultPartitionName;
  }

  public PartitionKey partitionOf(InternalRow row) {
    if (indexes.length == 0) return PartitionKey.EMPTY;
    Object[] values = new Object[indexes.length];
    for (int i = 0; i < values.length; i++) {
      int idx = indexes[i];
      Object v = row.isNullAt(idx) ? null : row.get(idx, sparkTypes[i]);
      // Input rows are reused: keep a private copy of string bytes.
      values[i] = v instanceof UTF8String ? ((UTF8String) v).clone() : v;
    }
    GenericInternalRow prow = new GenericInternalRow(values);
    return new PartitionKey(prow, BinaryRows.serialize(prow, types));
  }

}
