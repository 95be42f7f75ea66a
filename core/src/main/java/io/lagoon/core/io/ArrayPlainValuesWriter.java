package io.lagoon.core.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.io.api.Binary;

/**
 * Parquet's PLAIN encoding of numbers (and of byte arrays, for a dictionary's fall-back) into one
 * growing array. Parquet's own plain writer sends every value through a little-endian stream
 * into a slab stream, eight single-byte stores and a bounds-checked copy per long: the largest
 * cost of writing a table's keys and sequence numbers, which are unique and so never go by
 * dictionary. Here a value is one store into the array. The bytes, the buffered size the page
 * checks read, and so the pages, are exactly Parquet's.
 *
 * <p>The array is kept from page to page: a page's bytes are handed out by {@link #getBytes} and
 * consumed (compressed or copied) by the page writer before the column writer calls {@link #reset}.
 */
final class ArrayPlainValuesWriter extends ValuesWriter {
  private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private byte[] buffer;
  private int size;
  private final BinaryBytes located = new BinaryBytes();

  ArrayPlainValuesWriter(int initialSize) {
    buffer = new byte[Math.max(64, initialSize)];
  }

  /** Where the next {@code n} bytes go (the array may grow: read {@link #buffer} after this). */
  private int reserve(int n) {
    int at = size;
    if (at + n > buffer.length) buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, at + n));
    size = at + n;
    return at;
  }

  @Override
  public void writeInteger(int v) {
    int at = reserve(4);
    INTS.set(buffer, at, v);
  }

  @Override
  public void writeLong(long v) {
    int at = reserve(8);
    LONGS.set(buffer, at, v);
  }

  @Override
  public void writeFloat(float v) {
    int at = reserve(4);
    INTS.set(buffer, at, Float.floatToIntBits(v));
  }

  @Override
  public void writeDouble(double v) {
    int at = reserve(8);
    LONGS.set(buffer, at, Double.doubleToLongBits(v));
  }

  @Override
  public void writeByte(int v) {
    int at = reserve(1);
    buffer[at] = (byte) v;
  }

  /** A length (four bytes, little-endian), then the bytes. */
  @Override
  public void writeBytes(Binary v) {
    int n = v.length();
    int at = reserve(4 + n);
    INTS.set(buffer, at, n);
    BinaryBytes b = located.of(v);
    System.arraycopy(b.array, b.offset, buffer, at + 4, n);
  }

  @Override
  public long getBufferedSize() {
    return size;
  }

  @Override
  public BytesInput getBytes() {
    return BytesInput.from(buffer, 0, size);
  }

  @Override
  public Encoding getEncoding() {
    return Encoding.PLAIN;
  }

  @Override
  public void reset() {
    size = 0;
  }

  @Override
  public void close() {
    buffer = new byte[0];
    size = 0;
  }

  @Override
  public long getAllocatedSize() {
    return buffer.length;
  }

  @Override
  public String memUsageString(String prefix) {
    return prefix + " plain, " + size + " bytes in an array of " + buffer.length;
  }
}
