package io.lagoon.core.io;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.apache.parquet.io.api.Binary;

/**
 * Where a Parquet {@code Binary}'s bytes lie, found without copying them or allocating: every form
 * of {@code Binary} writes its bytes to a stream in one call, from its own array where it has one
 * (a slice of a row's array, a dictionary page's buffer), and this stream only notes that array,
 * offset and length. Asking a value for a {@code ByteBuffer} instead makes a new one per value, a
 * tenth of what a compaction's tasks allocated. Valid until the value's array changes: use at once.
 */
final class BinaryBytes extends OutputStream {
  byte[] array;
  int offset;
  int length;

  /** This, pointing at {@code v}'s bytes (a copy only for a value in an off-heap buffer). */
  BinaryBytes of(Binary v) {
    try {
      v.writeTo(this);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  @Override
  public void write(byte[] b, int off, int len) {
    array = b;
    offset = off;
    length = len;
  }

  @Override
  public void write(byte[] b) {
    write(b, 0, b.length);
  }

  @Override
  public void write(int b) {
    throw new UnsupportedOperationException("a Binary writes its bytes in one call");
  }
}
