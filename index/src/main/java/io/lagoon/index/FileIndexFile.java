package io.lagoon.index;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The container Paimon keeps a data file's indexes in (embedded in the manifest entry when small,
 * else a file beside the data file): a head of magic (8 bytes), version 1, head length, the
 * number of columns, then per column its name (Java modified UTF-8 with a 2-byte length) and its
 * indexes, each as type name, start (from the beginning of the container) and length; then 4
 * bytes of (empty) redundancy; then the index bodies. Integers big-endian.
 */
public final class FileIndexFile {
  private static final long MAGIC = 1493475289347502L;
  private static final int VERSION = 1;

  /** One index body: a range of the container's bytes. */
  public record Body(byte[] data, int offset, int length) {
  }

  private FileIndexFile() {}

  /** @param indexes column -> index type -> body, in the order they are written */
  public static byte[] write(Map<String, Map<String, byte[]>> indexes) {
    try {
      ByteArrayOutputStream headNames = new ByteArrayOutputStream();
      DataOutputStream names = new DataOutputStream(headNames);
      int entries = 0;
      for (Map.Entry<String, Map<String, byte[]>> c : indexes.entrySet()) {
        names.writeUTF(c.getKey());
        for (String type : c.getValue().keySet()) {
          names.writeUTF(type);
          entries++;
        }
      }
      int headLength = 8 + 4 + 4 + 4 + entries * 8 + indexes.size() * 4 + 4 + headNames.size();
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeLong(MAGIC);
      out.writeInt(VERSION);
      out.writeInt(headLength);
      out.writeInt(indexes.size());
      int start = headLength;
      for (Map.Entry<String, Map<String, byte[]>> c : indexes.entrySet()) {
        out.writeUTF(c.getKey());
        out.writeInt(c.getValue().size());
        for (Map.Entry<String, byte[]> index : c.getValue().entrySet()) {
          out.writeUTF(index.getKey());
          out.writeInt(start);
          out.writeInt(index.getValue().length);
          start += index.getValue().length;
        }
      }
      out.writeInt(0);
      for (Map<String, byte[]> c : indexes.values()) for (byte[] body : c.values()) out.write(body);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The bodies of a container, by column then index type.
   *
   * @throws IllegalArgumentException when the bytes are not a file index of a known version, or
   *     a body lies outside them
   */
  public static Map<String, Map<String, Body>> read(byte[] data) {
    Map<String, Map<String, Body>> out = new LinkedHashMap<>();
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
      if (in.readLong() != MAGIC) throw new IllegalArgumentException("Not a file index: wrong magic number");
      int version = in.readInt();
      if (version != VERSION) throw new IllegalArgumentException("File index version " + version + " is not known");
      int headLength = in.readInt();
      if (headLength < 24 || headLength > data.length) {
        throw new IllegalArgumentException("File index head of " + headLength + " bytes in " + data.length);
      }
      int columns = in.readInt();
      for (int c = 0; c < columns; c++) {
        String column = in.readUTF();
        int n = in.readInt();
        Map<String, Body> types = out.computeIfAbsent(column, k -> new LinkedHashMap<>());
        for (int i = 0; i < n; i++) {
          String type = in.readUTF();
          int start = in.readInt();
          int length = in.readInt();
          if (start < headLength || length < 0 || (long) start + length > data.length) {
            throw new IllegalArgumentException("File index body of column '" + column + "' (" + type + ") at " + start
                + " for " + length + " bytes lies outside its " + data.length + " bytes");
          }
          types.put(type, new Body(data, start, length));
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("Truncated file index: " + e.getMessage(), e);
    }
    return out;
  }
}
