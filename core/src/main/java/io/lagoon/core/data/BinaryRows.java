package io.lagoon.core.data;

import io.lagoon.core.types.PaimonType;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;

/**
 * Entry point for Paimon BinaryRow bytes. {@code toBytes}/{@code fromBytes} work on the bare row;
 * {@code serialize}/{@code deserialize} add or read the big-endian int32 arity prefix that Paimon's
 * {@code SerializationUtils.serializeBinaryRow} writes, which is the form manifests store
 * ({@code _PARTITION}, {@code _MIN_KEY}/{@code _MAX_KEY}, stats {@code _MIN_VALUES}/{@code _MAX_VALUES}).
 */
public final class BinaryRows {
  /** Length of the serialized arity prefix. */
  public static final int ARITY_PREFIX_BYTES = 4;

  private BinaryRows() {}

  /** The bare BinaryRow bytes of {@code row}, RowKind +I. */
  public static byte[] toBytes(InternalRow row, List<PaimonType> types) {
    return BinaryRowWriter.write(row, types);
  }

  /** Decodes bare BinaryRow bytes holding {@code arity} fields. */
  public static GenericInternalRow fromBytes(byte[] rowBytes, int arity, List<PaimonType> types) {
    return BinaryRowReader.read(rowBytes, 0, arity, types);
  }

  /** Arity prefix (big-endian int32) followed by the BinaryRow bytes. */
  public static byte[] serialize(InternalRow row, List<PaimonType> types) {
    return withArity(types.size(), BinaryRowWriter.write(row, types));
  }

  /** Prefixes bare row bytes with their arity. */
  public static byte[] withArity(int arity, byte[] rowBytes) {
    return ByteBuffer.allocate(ARITY_PREFIX_BYTES + rowBytes.length).putInt(arity).put(rowBytes).array();
  }

  /** The arity a serialized row declares. */
  public static int arity(byte[] serialized) {
    if (serialized.length < ARITY_PREFIX_BYTES) {
      throw new IllegalArgumentException("serialized BinaryRow is " + serialized.length + " bytes, too short for its arity");
    }
    return ByteBuffer.wrap(serialized).getInt();
  }

  /**
   * Decodes a serialized row. When it has fewer fields than {@code types} (a row written under an
   * older schema), the missing trailing fields read as null; extra fields are ignored.
   */
  public static GenericInternalRow deserialize(byte[] serialized, List<PaimonType> types) {
    return BinaryRowReader.read(serialized, ARITY_PREFIX_BYTES, arity(serialized), types);
  }

  /** The bare row bytes of a serialized row (the arity prefix stripped). */
  public static byte[] rowBytes(byte[] serialized) {
    arity(serialized);
    byte[] out = new byte[serialized.length - ARITY_PREFIX_BYTES];
    System.arraycopy(serialized, ARITY_PREFIX_BYTES, out, 0, out.length);
    return out;
  }

  /** Paimon's {@code BinaryRow.hashCode()} of bare row bytes. */
  public static int hash(byte[] rowBytes) {
    return MurmurHash.hashBytesByWords(rowBytes, 0, rowBytes.length);
  }

  /** Paimon's {@code BinaryRow.hashCode()} of {@code row} encoded with {@code types} as +I. */
  public static int hash(InternalRow row, List<PaimonType> types) {
    return hash(toBytes(row, types));
  }
}
