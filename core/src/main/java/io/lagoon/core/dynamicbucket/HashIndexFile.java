package io.lagoon.core.dynamicbucket;

import io.lagoon.core.fs.FileIO;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.fs.Path;

/**
 * A dynamic-bucket table's HASH index file ({@code index/index-*}, index type {@code HASH}): the
 * hashes of the keys one bucket of one partition holds, each the hash of the key row without the
 * partition columns, as a big-endian int32, nothing else (the index manifest entry's row count is
 * their number). Paimon never removes a key's hash when the key is deleted, so a bucket keeps it.
 */
public final class HashIndexFile {
  public static final String INDEX_TYPE = "HASH";

  private HashIndexFile() {}

  /** The hashes in file order; a length that is not a multiple of 4 is a corrupt file. */
  public static int[] read(FileIO io, Path file) throws IOException {
    byte[] bytes = io.readBytes(file);
    if (bytes.length % Integer.BYTES != 0) {
      throw new IOException("Corrupt HASH index file " + file + ": " + bytes.length
          + " bytes is not a whole number of 4-byte key hashes");
    }
    int[] out = new int[bytes.length / Integer.BYTES];
    ByteBuffer b = ByteBuffer.wrap(bytes); // big-endian, as Paimon writes them
    for (int i = 0; i < out.length; i++) out[i] = b.getInt();
    return out;
  }

  /** Writes the hashes (a new file; an existing one is an error) and returns the file's size. */
  public static long write(FileIO io, Path file, int[] hashes) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(hashes.length * Integer.BYTES);
    for (int h : hashes) b.putInt(h);
    io.writeBytes(file, b.array(), false);
    return b.capacity();
  }
}
