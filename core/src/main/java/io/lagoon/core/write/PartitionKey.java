package io.lagoon.core.write;

import java.util.Arrays;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;

/** A partition of one row: its values (detached from the input row) and serialized bytes, keyed by the bytes. */
public final class PartitionKey {
  public static final PartitionKey EMPTY =
      new PartitionKey(new GenericInternalRow(0), io.lagoon.core.manifest.SimpleStats.EMPTY_ROW);
  public final InternalRow row;
  public final byte[] bytes;

  public PartitionKey(InternalRow row, byte[] bytes) {
    this.row = row;
    this.bytes = bytes;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PartitionKey && Arrays.equals(bytes, ((PartitionKey) o).bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }
}
