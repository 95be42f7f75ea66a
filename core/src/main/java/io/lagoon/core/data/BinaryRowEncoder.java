package io.lagoon.core.data;

import io.lagoon.core.types.PaimonType;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Encodes some fields of rows as Paimon BinaryRows into one reused buffer, for code that encodes
 * a row per record only to hash it (bucket assignment): no allocation per row. Not thread-safe.
 */
public final class BinaryRowEncoder {
  private final PaimonType[] types;
  private final int[] positions;
  private byte[] buffer = new byte[64];

  /**
   * @param positions where each field sits in the rows given; null for the first
   *     {@code types.size()} fields in order
   */
  public BinaryRowEncoder(List<PaimonType> types, int[] positions) {
    this.types = types.toArray(new PaimonType[0]);
    if (positions == null) {
      positions = new int[this.types.length];
      for (int i = 0; i < positions.length; i++) positions[i] = i;
    }
    if (positions.length != this.types.length) {
      throw new IllegalArgumentException(positions.length + " positions for " + this.types.length + " types");
    }
    this.positions = positions.clone();
  }

  /** Encodes the row into {@link #buffer()} and returns its size in bytes. */
  public int encode(InternalRow row, byte rowKind) {
    int size = BinaryRowWriter.sizeOf(row, positions, types);
    if (buffer.length < size) buffer = new byte[Math.max(size, buffer.length * 2)];
    else Arrays.fill(buffer, 0, size, (byte) 0);
    BinaryRowWriter.writeInto(buffer, row, positions, types, rowKind);
    return size;
  }

  /** The bytes of the last row encoded (valid up to the size {@link #encode} returned). */
  public byte[] buffer() {
    return buffer;
  }

  /** Paimon's {@code BinaryRow.hashCode()} of the fields encoded as a +I row. */
  public int hash(InternalRow row) {
    int size = encode(row, (byte) 0);
    return MurmurHash.hashBytesByWords(buffer, 0, size);
  }
}
