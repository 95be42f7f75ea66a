package io.lagoon.core.mergetree.engine;

import java.util.Objects;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * One record of a primary-key table as the merge tree stores it: the key, the sequence number the
 * writer gave it (rising per bucket), its row kind, and the full value row (every table column, as
 * Catalyst internal values).
 *
 * <p>Row kinds use Paimon's {@code RowKind} bytes, the values stored in {@code _VALUE_KIND}:
 * {@code +I}=0, {@code -U}=1, {@code +U}=2, {@code -D}=3. {@code +I} and {@code +U} add a row;
 * {@code -U} and {@code -D} retract one.
 *
 * <p>A file reader reuses one holder, and the rows it points at, for all its records (see
 * {@link #reuse}): a record is valid until its reader moves on. Merge functions copy whatever they
 * keep.
 */
public final class KeyValue {
  public static final byte INSERT = 0;
  public static final byte UPDATE_BEFORE = 1;
  public static final byte UPDATE_AFTER = 2;
  public static final byte DELETE = 3;

  private InternalRow key;
  private long sequence;
  private byte rowKind;
  private InternalRow value;

  /**
   * @param key the primary key row; may be null when the caller keys records elsewhere
   * @param sequence the sequence number
   * @param rowKind one of {@link #INSERT}, {@link #UPDATE_BEFORE}, {@link #UPDATE_AFTER},
   *     {@link #DELETE}
   * @param value the full value row, never null
   */
  public KeyValue(InternalRow key, long sequence, byte rowKind, InternalRow value) {
    reuse(key, sequence, rowKind, value);
  }

  /**
   * Points this holder at the next record of a reader (one allocation per file rather than per
   * record); whoever held the previous record must be done with it.
   */
  public KeyValue reuse(InternalRow key, long sequence, byte rowKind, InternalRow value) {
    if (rowKind < INSERT || rowKind > DELETE) {
      throw new IllegalArgumentException("Unknown row kind byte " + rowKind
          + ": expected 0 (+I), 1 (-U), 2 (+U) or 3 (-D)");
    }
    this.key = key;
    this.sequence = sequence;
    this.rowKind = rowKind;
    this.value = Objects.requireNonNull(value, "value");
    return this;
  }

  public static KeyValue of(InternalRow key, long sequence, byte rowKind, InternalRow value) {
    return new KeyValue(key, sequence, rowKind, value);
  }

  public InternalRow key() {
    return key;
  }

  public long sequence() {
    return sequence;
  }

  public byte rowKind() {
    return rowKind;
  }

  public InternalRow value() {
    return value;
  }

  /** True for {@code +I} and {@code +U}. */
  public boolean isAdd() {
    return isAdd(rowKind);
  }

  /** True for {@code -U} and {@code -D}. */
  public boolean isRetract() {
    return !isAdd(rowKind);
  }

  public static boolean isAdd(byte rowKind) {
    return rowKind == INSERT || rowKind == UPDATE_AFTER;
  }

  /** Paimon's short name of a row kind: {@code +I}, {@code -U}, {@code +U} or {@code -D}. */
  public static String kindName(byte rowKind) {
    switch (rowKind) {
      case INSERT: return "+I";
      case UPDATE_BEFORE: return "-U";
      case UPDATE_AFTER: return "+U";
      case DELETE: return "-D";
      default: return "?" + rowKind;
    }
  }

  @Override
  public String toString() {
    return kindName(rowKind) + "#" + sequence + " " + key + " -> " + value;
  }
}
