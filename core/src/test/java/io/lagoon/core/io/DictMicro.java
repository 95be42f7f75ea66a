package io.lagoon.core.io;

import java.nio.charset.StandardCharsets;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.factory.DefaultValuesWriterFactory;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Types;

public class DictMicro {
  public static void main(String[] a) {
    ColumnDescriptor col = new ColumnDescriptor(new String[] {"s"}, Types.optional(PrimitiveType.PrimitiveTypeName.BINARY).named("s"), 0, 1);
    int distinct = Integer.parseInt(a[0]);
    byte[][] vals = new byte[1_000_000][];
    java.util.Random r = new java.util.Random(1);
    for (int i = 0; i < vals.length; i++) vals[i] = ("customer-" + r.nextInt(distinct)).getBytes(StandardCharsets.UTF_8);
    for (int rep = 0; rep < 6; rep++) {
      for (boolean ours : new boolean[] {false, true}) {
        ParquetProperties p = ParquetProperties.builder().withValuesWriterFactory(ours ? new LagoonValuesWriters() : new DefaultValuesWriterFactory()).build();
        ValuesWriter w = p.newValuesWriter(col);
        long t = System.nanoTime();
        for (byte[] v : vals) w.writeBytes(Binary.fromReusedByteArray(v));
        long ms = (System.nanoTime() - t) / 1_000_000;
        if (rep >= 3) System.out.println((ours ? "lagoon " : "parquet ") + distinct + " " + ms + " ms " + w.getEncoding());
      }
    }
  }
}
