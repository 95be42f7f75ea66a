package io.lagoon.it.interop.scratch;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.interop.*;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;
import org.apache.hadoop.conf.Configuration;
import org.apache.orc.*;
import org.junit.jupiter.api.Test;

@RequiresPaimon131
class OrcScratchTest extends LagoonSparkTest {
  @Test
  void dump() throws Exception {
    Path dir = PaimonOracle.createTable(warehouse, "s", "p", PaimonTables.schema(Map.of("file.format", "orc")));
    PaimonTables.write(dir, InteropData.rows(1, 12));
    org.apache.paimon.types.RowType rt = org.apache.paimon.types.RowType.of(new org.apache.paimon.types.DataType[] {
        org.apache.paimon.types.DataTypes.TIMESTAMP(6), org.apache.paimon.types.DataTypes.TIMESTAMP(3), org.apache.paimon.types.DataTypes.TIMESTAMP(9),
        org.apache.paimon.types.DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3), org.apache.paimon.types.DataTypes.BINARY(4), org.apache.paimon.types.DataTypes.VARBINARY(7), org.apache.paimon.types.DataTypes.DECIMAL(5, 1)},
        new String[] {"ntz", "ntz3", "ntz9", "ltz3", "b4", "vb", "d5"});
    org.apache.paimon.schema.Schema.Builder psb = org.apache.paimon.schema.Schema.newBuilder();
    rt.getFields().forEach(f -> psb.column(f.name(), f.type()));
    Path d2 = PaimonOracle.createTable(warehouse, "s", "q", psb.option("file.format", "orc").build());
    PaimonOracle.writeRows(d2, List.of(PaimonOracle.row(rt, java.time.LocalDateTime.parse("1500-06-01T12:00:00.123456"),
        java.time.LocalDateTime.parse("1500-06-01T12:00:00.123"), java.time.LocalDateTime.parse("2024-06-01T12:00:00.123456789"),
        java.time.Instant.parse("2024-01-01T00:00:00.123Z"), new byte[] {1, 2, 3, 4}, new byte[] {5}, new java.math.BigDecimal("1234.5"))));
    System.out.println("PAIMON-Q " + PaimonOracle.readRows(d2));
    for (Path base : List.of(dir, d2)) {
      try (Stream<Path> w = Files.walk(base)) {
        Path p = w.filter(x -> x.toString().endsWith(".orc")).findFirst().get();
        Reader r = OrcFile.createReader(new org.apache.hadoop.fs.Path(p.toString()), OrcFile.readerOptions(new Configuration()));
        System.out.println("SCHEMA " + r.getSchema());
        System.out.println("JSON " + r.getSchema().toJson().replace("\n", " "));
        System.out.println("META " + r.getMetadataKeys() + " compression=" + r.getCompressionKind() + " rowIndexStride=" + r.getRowIndexStride()
            + " stripeTz=" + r.getStripes().size() + " writerVersion=" + r.getWriterVersion() + " fileVersion=" + r.getFileVersion()
            + " calendar=" + r.getFileTail().getFooter().getCalendar());
      }
    }
  }
}
