package io.lagoon.core.deletionvectors;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Paimon's deletion-vector index file ({@code index/index-*}): a version byte (1), then per data
 * file its serialized vector as a big-endian int size, the bytes, and a big-endian int CRC32 of
 * those bytes. The index manifest locates each vector by the offset of its size int.
 */
public final class DeletionVectorFile {
  public static final byte VERSION = 1;

  private DeletionVectorFile() {}

  /** An index file's bytes and where each vector sits in them. */
  public static final class Written {
    public final byte[] bytes;
    public final List<DeletionVectorRange> ranges;

    Written(byte[] bytes, List<DeletionVectorRange> ranges) {
      this.bytes = bytes;
      this.ranges = ranges;
    }
  }

  /** Encodes vectors (data file name to vector, in the order given) into one index file. */
  public static Written write(List<Map.Entry<String, DeletionVector>> vectors) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeByte(VERSION);
      List<DeletionVectorRange> ranges = new ArrayList<>();
      for (Map.Entry<String, DeletionVector> e : vectors) {
        byte[] bin = e.getValue().serialize();
        int offset = out.size();
        out.writeInt(bin.length);
        out.write(bin);
        out.writeInt(crc(bin));
        // Paimon counts the 64-bit form's length as its bytes plus 8, which readers ignore.
        int length = e.getValue().bitmap64() ? bin.length + 8 : bin.length;
        ranges.add(new DeletionVectorRange(e.getKey(), offset, length, e.getValue().cardinality()));
      }
      out.flush();
      return new Written(bytes.toByteArray(), ranges);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads the vector of {@code range} out of a whole index file's bytes.
   *
   * @param indexFile the file's name, for errors
   * @throws IllegalStateException naming the index and data file when the vector is missing or
   *     corrupt: rows must never come back silently
   */
  public static DeletionVector read(byte[] file, DeletionVectorRange range, String indexFile) {
    String where = "deletion vector of data file " + range.dataFile + " in index file " + indexFile;
    if (file.length == 0 || file[0] != VERSION) {
      throw new IllegalStateException("Corrupt " + where + ": version byte " + (file.length == 0 ? "missing" : file[0])
          + ", expected " + VERSION);
    }
    if (range.offset < 1 || (long) range.offset + 8 > file.length) {
      throw new IllegalStateException("Corrupt " + where + ": offset " + range.offset + " is outside the file's "
          + file.length + " bytes");
    }
    ByteBuffer in = ByteBuffer.wrap(file);
    int size = in.getInt(range.offset);
    if (size < 4 || (long) range.offset + 8 + size > file.length) {
      throw new IllegalStateException("Corrupt " + where + ": size " + size + " at offset " + range.offset
          + " does not fit the file's " + file.length + " bytes");
    }
    byte[] bin = new byte[size];
    System.arraycopy(file, range.offset + 4, bin, 0, size);
    int stored = in.getInt(range.offset + 4 + size);
    if (stored != crc(bin)) {
      throw new IllegalStateException("Corrupt " + where + ": checksum mismatch");
    }
    DeletionVector dv;
    try {
      dv = DeletionVector.deserialize(bin);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("Corrupt " + where + ": " + e.getMessage(), e);
    }
    if (range.cardinality != null && range.cardinality != dv.cardinality()) {
      throw new IllegalStateException("Corrupt " + where + ": it deletes " + dv.cardinality() + " rows, the index "
          + "manifest says " + range.cardinality);
    }
    return dv;
  }

  private static int crc(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes, 0, bytes.length);
    return (int) crc.getValue();
  }
}
