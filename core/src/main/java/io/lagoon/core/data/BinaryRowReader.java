package io.lagoon.core.data;

import static io.lagoon.core.data.BinaryRowLayout.*;

import io.lagoon.core.types.PaimonType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Decodes Paimon BinaryRow bytes (no arity prefix) into a {@link GenericInternalRow} of Catalyst
 * internal values. Fields the row does not have (its arity is below the number of types) read as
 * null; fields beyond the given types are ignored. A null nested field decodes to null; a non-null
 * one is rejected.
 */
public final class BinaryRowReader {
  private BinaryRowReader() {}

  /**
   * Reads the row of {@code arity} fields that starts at {@code offset} in {@code bytes}; offsets
   * stored in the row are relative to that start.
   */
  public static GenericInternalRow read(byte[] bytes, int offset, int arity, List<PaimonType> types) {
    if (arity < 0) throw new IllegalArgumentException("negative arity " + arity);
    int fixed = fixedPartBytes(arity);
    if (bytes.length - offset < fixed) {
      throw new IllegalArgumentException("BinaryRow of arity " + arity + " needs at least " + fixed
          + " bytes, got " + (bytes.length - offset));
    }
    Object[] values = new Object[types.size()];
    int n = Math.min(arity, types.size());
    for (int i = 0; i < n; i++) {
      if ((bytes[offset + nullByte(i)] & nullMask(i)) != 0) continue;
      values[i] = readField(bytes, offset, offset + slotOffset(arity, i), types.get(i), i);
    }
    return new GenericInternalRow(values);
  }

  /** The RowKind byte of the row starting at {@code offset}. */
  public static byte rowKind(byte[] bytes, int offset) {
    return bytes[offset];
  }

  private static Object readField(byte[] b, int base, int slot, PaimonType t, int pos) {
    switch (t.root()) {
      case BOOLEAN: return b[slot] != 0;
      case TINYINT: return b[slot];
      case SMALLINT: return LittleEndian.getShort(b, slot);
      case INT: case DATE: case TIME: return LittleEndian.getInt(b, slot);
      case BIGINT: return LittleEndian.getLong(b, slot);
      case FLOAT: return Float.intBitsToFloat(LittleEndian.getInt(b, slot));
      case DOUBLE: return Double.longBitsToDouble(LittleEndian.getLong(b, slot));
      case CHAR: case VARCHAR: return UTF8String.fromBytes(readBytes(b, base, slot));
      case BINARY: case VARBINARY: return readBytes(b, base, slot);
      case DECIMAL: return readDecimal(b, base, slot, t);
      case TIMESTAMP: case TIMESTAMP_LTZ: return readTimestamp(b, base, slot, t);
      default: throw nestedUnsupported(t, pos);
    }
  }

  private static byte[] readBytes(byte[] b, int base, int slot) {
    long word = LittleEndian.getLong(b, slot);
    if ((word & INLINE_MARK) != 0) {
      int len = (int) ((word >>> 56) & 0x7F);
      return Arrays.copyOfRange(b, slot, slot + len);
    }
    int start = base + (int) (word >>> 32);
    int len = (int) word;
    return Arrays.copyOfRange(b, start, start + len);
  }

  private static Decimal readDecimal(byte[] b, int base, int slot, PaimonType t) {
    long word = LittleEndian.getLong(b, slot);
    if (isCompactDecimal(t)) return Decimal.apply(word, t.precision(), t.scale());
    int start = base + (int) (word >>> 32);
    int len = (int) word;
    BigInteger unscaled = new BigInteger(Arrays.copyOfRange(b, start, start + len));
    return Decimal.apply(new BigDecimal(unscaled, t.scale()), t.precision(), t.scale());
  }

  private static long readTimestamp(byte[] b, int base, int slot, PaimonType t) {
    long word = LittleEndian.getLong(b, slot);
    if (isCompactTimestamp(t)) return Math.multiplyExact(word, 1000L);
    long millis = LittleEndian.getLong(b, base + (int) (word >>> 32));
    return PaimonTimestamps.micros(millis, (int) word);
  }
}
