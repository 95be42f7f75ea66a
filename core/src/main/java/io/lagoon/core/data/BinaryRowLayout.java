package io.lagoon.core.data;

import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;

/**
 * Geometry of Paimon's BinaryRow: a null bitset (whose first byte is the RowKind), one 8-byte slot
 * per field, then a variable-length part. Every multi-byte value is little-endian, every region is
 * 8-byte aligned, so a row's size is always a multiple of 8.
 */
public final class BinaryRowLayout {
  /** Bits of the null bitset taken by the RowKind header byte. */
  public static final int HEADER_BITS = 8;
  /** Bytes of one fixed-length field slot. */
  public static final int SLOT_BYTES = 8;
  /** Longest string or binary value kept inside its slot instead of the variable part. */
  public static final int MAX_INLINE_BYTES = 7;
  /** Bytes a DECIMAL with precision above 18 reserves in the variable part, null or not. */
  public static final int WIDE_DECIMAL_BYTES = 16;
  /** Bytes a TIMESTAMP with precision above 3 reserves in the variable part (the millis), null or not. */
  public static final int WIDE_TIMESTAMP_BYTES = 8;
  /** Marks a slot whose string or binary value is stored inline (the slot's top bit). */
  public static final long INLINE_MARK = 0x8000_0000_0000_0000L;

  private BinaryRowLayout() {}

  /** Size of the null bitset including the RowKind byte: {@code ((arity + 63 + 8) / 64) * 8}. */
  public static int bitsetBytes(int arity) {
    return ((arity + 63 + HEADER_BITS) / 64) * 8;
  }

  /** Size of bitset plus slots, i.e. where the variable part starts. */
  public static int fixedPartBytes(int arity) {
    return bitsetBytes(arity) + arity * SLOT_BYTES;
  }

  /** Byte offset of field {@code pos}'s slot from the row start. */
  public static int slotOffset(int arity, int pos) {
    return bitsetBytes(arity) + pos * SLOT_BYTES;
  }

  /** Byte of the bitset that holds field {@code pos}'s null bit. */
  public static int nullByte(int pos) {
    return (pos + HEADER_BITS) >>> 3;
  }

  /** Mask of field {@code pos}'s null bit within {@link #nullByte(int)}. */
  public static int nullMask(int pos) {
    return 1 << ((pos + HEADER_BITS) & 7);
  }

  /** Rounds a byte count up to whole 8-byte words. */
  public static int roundToWord(int bytes) {
    return (bytes + 7) & ~7;
  }

  /** True for DECIMAL types that keep their unscaled value in the slot (precision at most 18). */
  public static boolean isCompactDecimal(PaimonType t) {
    return t.root() == TypeRoot.DECIMAL && t.precision() <= 18;
  }

  /** True for TIMESTAMP types that keep only epoch millis in the slot (precision at most 3). */
  public static boolean isCompactTimestamp(PaimonType t) {
    return isTimestamp(t) && t.precision() <= 3;
  }

  public static boolean isTimestamp(PaimonType t) {
    return t.root() == TypeRoot.TIMESTAMP || t.root() == TypeRoot.TIMESTAMP_LTZ;
  }

  /**
   * Bytes a field of this type always reserves in the variable part, even when null: 16 for a
   * wide DECIMAL, 8 for a wide TIMESTAMP, 0 otherwise (strings reserve only when non-null).
   */
  public static int reservedVariableBytes(PaimonType t) {
    if (t.root() == TypeRoot.DECIMAL && !isCompactDecimal(t)) return WIDE_DECIMAL_BYTES;
    if (isTimestamp(t) && !isCompactTimestamp(t)) return WIDE_TIMESTAMP_BYTES;
    return 0;
  }

  static UnsupportedOperationException nestedUnsupported(PaimonType t, int pos) {
    return new UnsupportedOperationException("BinaryRow encoding of nested type " + t + " (field " + pos
        + ") is not supported: partitions, keys and stats never hold nested values");
  }
}
