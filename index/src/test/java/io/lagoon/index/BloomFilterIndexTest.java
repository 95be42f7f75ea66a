package io.lagoon.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** XXH64 against the specification's vectors; Bloom filters that never miss a value; the container both ways. */
class BloomFilterIndexTest {
  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void xxh64MatchesTheReferenceVectors() {
    assertEquals(0xEF46DB3751D8E999L, Xxh64.hash(new byte[0]));
    assertEquals(0xD24EC4F1A98C6E5BL, Xxh64.hash(utf8("a")));
    assertEquals(0x44BC2CF5AD770999L, Xxh64.hash(utf8("abc")));
    // Every tail length and the 32-byte stripes: a range hashes as the same bytes copied out.
    Random r = new Random(1);
    byte[] big = new byte[200];
    r.nextBytes(big);
    for (int len = 0; len <= 100; len++) {
      byte[] copy = java.util.Arrays.copyOfRange(big, 7, 7 + len);
      assertEquals(Xxh64.hash(copy), Xxh64.hash(big, 7, len), "length " + len);
    }
  }

  @Test
  void neverMissesAnAddedValueAndKeepsItsFalsePositiveRate() {
    Random r = new Random(42);
    for (int items : new int[] {1, 10, 1000, 50_000}) {
      BloomFilterIndex f = BloomFilterIndex.sized(items, 0.05);
      long[] added = new long[items];
      for (int i = 0; i < items; i++) {
        long v = r.nextLong();
        added[i] = i % 2 == 0 ? ValueHashes.ofLong(v) : ValueHashes.ofBytes(utf8(Long.toString(v)));
        f.add(added[i]);
      }
      for (long h : added) assertTrue(f.mightContain(h), "an added value is never missed");
      BloomFilterIndex read = BloomFilterIndex.read(f.serialize(), 0, f.serialize().length);
      assertArrayEquals(f.serialize(), read.serialize());
      if (items >= 1000) {
        int fp = 0;
        int probes = 20_000;
        for (int p = 0; p < probes; p++) if (read.mightContain(ValueHashes.ofLong(r.nextLong()))) fp++;
        assertTrue(fp < probes * 0.08, "false positives " + fp + " of " + probes + " at fpp 0.05");
      }
    }
  }

  @Test
  void exactMembershipOfEveryAddedHash() {
    Random r = new Random(3);
    BloomFilterIndex f = BloomFilterIndex.sized(5000, 0.1);
    long[] hashes = new long[5000];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] = r.nextLong();
      f.add(hashes[i]);
    }
    byte[] bytes = f.serialize();
    byte[] shifted = new byte[bytes.length + 9];
    System.arraycopy(bytes, 0, shifted, 9, bytes.length);
    BloomFilterIndex read = BloomFilterIndex.read(shifted, 9, bytes.length);
    for (long h : hashes) assertTrue(read.mightContain(h));
  }

  @Test
  void refusesBadSizesAndBytes() {
    assertThrows(IllegalArgumentException.class, () -> BloomFilterIndex.sized(0, 0.1));
    assertThrows(IllegalArgumentException.class, () -> BloomFilterIndex.sized(10, 1.0));
    assertThrows(IllegalArgumentException.class, () -> BloomFilterIndex.read(new byte[3], 0, 3));
    assertThrows(IllegalArgumentException.class, () -> BloomFilterIndex.read(new byte[] {0, 0, 0, 0, 1}, 0, 5));
  }

  @Test
  void containerRoundTripsAndRefusesWhatIsNotOne() {
    Map<String, Map<String, byte[]>> indexes = new LinkedHashMap<>();
    indexes.put("v", new LinkedHashMap<>(Map.of(BloomFilterIndex.TYPE, new byte[] {1, 2, 3})));
    indexes.put("ünïcode", new LinkedHashMap<>(Map.of("bitmap", new byte[] {9})));
    byte[] file = FileIndexFile.write(indexes);
    Map<String, Map<String, FileIndexFile.Body>> read = FileIndexFile.read(file);
    assertEquals(indexes.keySet(), read.keySet());
    FileIndexFile.Body b = read.get("v").get(BloomFilterIndex.TYPE);
    assertArrayEquals(new byte[] {1, 2, 3}, java.util.Arrays.copyOfRange(b.data(), b.offset(), b.offset() + b.length()));
    FileIndexFile.Body u = read.get("ünïcode").get("bitmap");
    assertEquals(9, u.data()[u.offset()]);
    assertEquals(file.length, u.offset() + 1, "bodies follow the head in order");

    assertThrows(IllegalArgumentException.class, () -> FileIndexFile.read(new byte[30]), "wrong magic");
    byte[] truncated = java.util.Arrays.copyOf(file, file.length - 2);
    assertThrows(IllegalArgumentException.class, () -> FileIndexFile.read(truncated));
    byte[] future = file.clone();
    future[11] = 2;
    assertThrows(IllegalArgumentException.class, () -> FileIndexFile.read(future), "unknown version");
  }
}
