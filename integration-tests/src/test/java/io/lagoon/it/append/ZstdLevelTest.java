package io.lagoon.it.append;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.SparkRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code file.compression.zstd-level} decides how hard each table's Parquet files are compressed,
 * per table and whatever was read or written before in the same JVM (Parquet's own codec keeps the
 * level of the first caller for the whole process), and Paimon reads the files.
 */
class ZstdLevelTest extends LagoonSparkTest {
  private static final String WORDS = "array('alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', "
      + "'iota', 'kappa', 'lambda', 'mu')";
  /** Text-like strings (on which a higher level clearly compresses harder), stored plain. */
  private static final String ROWS = "SELECT id, CONCAT(element_at(" + WORDS + ", CAST(pmod(hash(id, 1), 12) + 1 AS INT)), ' ', "
      + "element_at(" + WORDS + ", CAST(pmod(hash(id, 2), 12) + 1 AS INT)), ' ', CAST(pmod(hash(id, 3), 16384) AS STRING)) "
      + "AS name FROM range(0, 60000, 1, 1)";

  @BeforeAll
  static void ns() {
    sql("CREATE NAMESPACE IF NOT EXISTS lake.zl");
  }

  private static Path dir(String table) {
    return warehouse.resolve("zl.db").resolve(table);
  }

  private static void table(String name, String level) {
    String props = "'parquet.enable.dictionary' = 'false'"
        + (level == null ? "" : ", 'file.compression.zstd-level' = '" + level + "'");
    sql("CREATE TABLE lake.zl." + name + " (id BIGINT, name STRING) TBLPROPERTIES (" + props + ")");
    sql("INSERT INTO lake.zl." + name + " " + ROWS);
  }

  /** Bytes of the table's data files. */
  private static long dataBytes(String table) {
    try (Stream<Path> files = Files.walk(dir(table))) {
      return files.filter(p -> p.getFileName().toString().startsWith("data-")).mapToLong(p -> {
        try {
          return Files.size(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void eachTableIsCompressedAtItsOwnLevel() {
    // Reads and writes at other levels come first, so a level kept from them would show.
    table("high", "19");
    table("low", "1");
    table("high_again", "19");
    table("unset", null);
    long high = dataBytes("high");
    long low = dataBytes("low");
    assertTrue(high < low * 0.97, "level 19 compresses harder than level 1: " + high + " vs " + low + " bytes");
    assertEquals(high, dataBytes("high_again"), "the same rows at the same level, written after a level-1 table");
    assertEquals(low, dataBytes("unset"), "Paimon's default level is 1");
    java.util.List<String> expected = SparkRows.renderAll(sql(ROWS));
    for (String t : new String[] {"high", "low", "high_again", "unset"}) {
      assertEquals(expected, SparkRows.renderAll(sql("SELECT * FROM lake.zl." + t)), t);
      assertEquals(expected, PaimonOracle.readRows(dir(t)), "Paimon 1.3.1 reads " + t);
    }
  }
}
