package io.lagoon.core.data;

import static io.lagoon.core.data.BinaryRowLayout.*;

import io.lagoon.core.types.PaimonType;
import java.math.BigInteger;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Encodes a Spark {@link InternalRow} into Paimon BinaryRow bytes (no arity prefix). The values
 * are Catalyst internal values typed by the given Paimon types. Nulls of wide DECIMAL and wide
 * TIMESTAMP fields still reserve their variable-part bytes, as Paimon's writers do; the size of
 * the row, and so its hash, depends on that. Floats and doubles are stored as their raw bits (NaN
 * payloads are kept, {@code -0.0} differs from {@code 0.0}), exactly as Paimon stores them.
 */
public final class BinaryRowWriter {
  private BinaryRowWriter() {}

  /** Encodes {@code row} with RowKind +I (byte 0). */
  public static byte[] write(InternalRow row, List<PaimonType> types) {
    return write(row, types, (byte) 0);
  }

  /**
   * Encodes the first {@code types.size()} fields of {@code row} with the given RowKind byte
   * (0 +I, 1 -U, 2 +U, 3 -D).
   */
  public static byte[] write(InternalRow row, List<PaimonType> types, byte rowKind) {
    int arity = types.size();
    if (row.numFields() < arity) {
      throw new IllegalArgumentException("row has " + row.numFields() + " fields, types describe " + arity);
    }
    BinaryRowEncoder encoder = new BinaryRowEncoder(types, null);
    int size = encoder.encode(row, rowKind);
    return java.util.Arrays.copyOf(encoder.buffer(), size);
  }

  /**
   * Writes the row into {@code out} (zeroed, at least {@code size} bytes, as
   * {@link #sizeOf} computed) reading field {@code i} from {@code row} at {@code positions[i]}.
   */
  static void writeInto(byte[] out, InternalRow row, int[] positions, PaimonType[] types, byte rowKind) {
    int arity = types.length;
    out[0] = rowKind;
    int cursor = fixedPartBytes(arity);
    for (int i = 0; i < arity; i++) {
      PaimonType t = types[i];
      int p = positions[i];
      int slot = slotOffset(arity, i);
      if (row.isNullAt(p)) {
        out[nullByte(i)] |= (byte) nullMask(i);
        int reserved = reservedVariableBytes(t);
        if (reserved > 0) {
          LittleEndian.putLong(out, slot, (long) cursor << 32);
          cursor += reserved;
        }
        continue;
      }
      switch (t.root()) {
        case BOOLEAN: out[slot] = (byte) (row.getBoolean(p) ? 1 : 0); break;
        case TINYINT: out[slot] = row.getByte(p); break;
        case SMALLINT: LittleEndian.putShort(out, slot, row.getShort(p)); break;
        case INT: case DATE: case TIME: LittleEndian.putInt(out, slot, row.getInt(p)); break;
        case BIGINT: LittleEndian.putLong(out, slot, row.getLong(p)); break;
        case FLOAT: LittleEndian.putInt(out, slot, Float.floatToRawIntBits(row.getFloat(p))); break;
        case DOUBLE: LittleEndian.putLong(out, slot, Double.doubleToRawLongBits(row.getDouble(p))); break;
        case CHAR: case VARCHAR:
          cursor = writeString(out, slot, cursor, row.getUTF8String(p));
          break;
        case BINARY: case VARBINARY:
          cursor = writeBytes(out, slot, cursor, row.getBinary(p));
          break;
        case DECIMAL:
          cursor = writeDecimal(out, slot, cursor, row.getDecimal(p, t.precision(), t.scale()), t);
          break;
        case TIMESTAMP: case TIMESTAMP_LTZ:
          cursor = writeTimestamp(out, slot, cursor, row.getLong(p), t);
          break;
        default:
          throw nestedUnsupported(t, i);
      }
    }
  }

  /** The encoded size of the row: fixed part, reserved variable parts, long strings and binaries. */
  static int sizeOf(InternalRow row, int[] positions, PaimonType[] types) {
    int arity = types.length;
    int size = fixedPartBytes(arity);
    for (int i = 0; i < arity; i++) {
      PaimonType t = types[i];
      size += reservedVariableBytes(t);
      int p = positions[i];
      if (t.root().isString() || t.root().isBinary()) {
        if (row.isNullAt(p)) continue;
        int n = t.root().isString() ? row.getUTF8String(p).numBytes() : row.getBinary(p).length;
        if (n > MAX_INLINE_BYTES) size += roundToWord(n);
      }
    }
    return size;
  }

  private static int writeString(byte[] out, int slot, int cursor, UTF8String v) {
    int n = v.numBytes();
    if (n <= MAX_INLINE_BYTES) {
      v.writeToMemory(out, Platform.BYTE_ARRAY_OFFSET + slot);
      out[slot + 7] = (byte) (0x80 | n);
      return cursor;
    }
    v.writeToMemory(out, Platform.BYTE_ARRAY_OFFSET + cursor);
    LittleEndian.putLong(out, slot, ((long) cursor << 32) | n);
    return cursor + roundToWord(n);
  }

  private static int writeBytes(byte[] out, int slot, int cursor, byte[] v) {
    if (v.length <= MAX_INLINE_BYTES) {
      System.arraycopy(v, 0, out, slot, v.length);
      out[slot + 7] = (byte) (0x80 | v.length);
      return cursor;
    }
    System.arraycopy(v, 0, out, cursor, v.length);
    LittleEndian.putLong(out, slot, ((long) cursor << 32) | v.length);
    return cursor + roundToWord(v.length);
  }

  private static int writeDecimal(byte[] out, int slot, int cursor, Decimal value, PaimonType t) {
    Decimal d = fitDecimal(value, t);
    if (isCompactDecimal(t)) {
      LittleEndian.putLong(out, slot, d.toUnscaledLong());
      return cursor;
    }
    BigInteger unscaled = d.toJavaBigDecimal().unscaledValue();
    byte[] bytes = unscaled.toByteArray();
    if (bytes.length > WIDE_DECIMAL_BYTES) {
      throw new IllegalArgumentException("decimal " + d + " does not fit " + t);
    }
    System.arraycopy(bytes, 0, out, cursor, bytes.length);
    LittleEndian.putLong(out, slot, ((long) cursor << 32) | bytes.length);
    return cursor + WIDE_DECIMAL_BYTES;
  }

  /** Brings a decimal to the type's precision and scale (HALF_UP), failing if it overflows. */
  static Decimal fitDecimal(Decimal value, PaimonType t) {
    if (value.precision() == t.precision() && value.scale() == t.scale()) return value;
    Decimal d = value.clone();
    if (!d.changePrecision(t.precision(), t.scale())) {
      throw new IllegalArgumentException("decimal " + value + " does not fit " + t);
    }
    return d;
  }

  private static int writeTimestamp(byte[] out, int slot, int cursor, long micros, PaimonType t) {
    long millis = PaimonTimestamps.millis(micros);
    if (isCompactTimestamp(t)) {
      LittleEndian.putLong(out, slot, millis);
      return cursor;
    }
    LittleEndian.putLong(out, cursor, millis);
    LittleEndian.putLong(out, slot, ((long) cursor << 32) | PaimonTimestamps.nanoOfMilli(micros));
    return cursor + WIDE_TIMESTAMP_BYTES;
  }
}
