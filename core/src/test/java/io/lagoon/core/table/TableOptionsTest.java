package io.lagoon.core.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class TableOptionsTest {
  @Test
  void parquetWritersGetPaimonsZstdLevelUnlessTheTableSaysOtherwise() {
    Configuration base = new Configuration(false);
    assertEquals(1, new TableOptions(Map.of()).writerConf(base).getInt(TableOptions.PARQUET_ZSTD_LEVEL, -1));
    assertEquals(9, new TableOptions(Map.of("file.compression.zstd-level", "9")).writerConf(base)
        .getInt(TableOptions.PARQUET_ZSTD_LEVEL, -1));
    // A parquet.* table option is handed to the writer as given, like Paimon does.
    assertEquals(4, new TableOptions(Map.of("parquet.compression.codec.zstd.level", "4")).writerConf(base)
        .getInt(TableOptions.PARQUET_ZSTD_LEVEL, -1));
    assertEquals(null, base.get(TableOptions.PARQUET_ZSTD_LEVEL), "the base configuration is left alone");
  }

  @Test
  void aZstdLevelThatIsNoIntegerIsRefusedNamingTheOption() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TableOptions.validate(Map.of("file.compression.zstd-level", "fast")));
    assertTrue(e.getMessage().contains("file.compression.zstd-level"), e.getMessage());
  }
}
