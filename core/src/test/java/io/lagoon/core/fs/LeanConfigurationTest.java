package io.lagoon.core.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class LeanConfigurationTest {
  private static Map<String, String> entries(Configuration c) {
    Map<String, String> m = new TreeMap<>();
    for (Map.Entry<String, String> e : c) m.put(e.getKey(), e.getValue());
    return m;
  }

  private static byte[] written(Configuration c) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      c.write(out);
    }
    return bytes.toByteArray();
  }

  @Test
  void readsBackAsTheSameEntriesInAPlainConfigurationAndIsSmaller() throws Exception {
    Configuration base = new Configuration();
    base.set("fs.s3a.endpoint", "http://example.invalid:9000");
    base.set("unicode.key", "välue ✓");
    LeanConfiguration lean = new LeanConfiguration(base);
    lean.set("set.after.copy", "x");
    assertEquals(null, base.get("set.after.copy"), "a copy: the base is left alone");

    byte[] bytes = written(lean);
    Configuration read = new Configuration(false);
    read.readFields(new DataInputStream(new ByteArrayInputStream(bytes)));
    assertEquals(entries(lean), entries(read));
    assertEquals("välue ✓", read.get("unicode.key"));
    assertTrue(entries(read).size() > 100, "Hadoop's defaults travel too");
    assertTrue(bytes.length < written(new Configuration(lean)).length, "the entries' sources are left out");
  }
}
