package io.lagoon.core.data;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian reads and writes of primitives in a byte array (BinaryRow's native order). */
final class LittleEndian {
  private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private LittleEndian() {}

  static short getShort(byte[] b, int off) { return (short) SHORT.get(b, off); }
  static int getInt(byte[] b, int off) { return (int) INT.get(b, off); }
  static long getLong(byte[] b, int off) { return (long) LONG.get(b, off); }

  static void putShort(byte[] b, int off, short v) { SHORT.set(b, off, v); }
  static void putInt(byte[] b, int off, int v) { INT.set(b, off, v); }
  static void putLong(byte[] b, int off, long v) { LONG.set(b, off, v); }
}
