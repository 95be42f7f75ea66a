package io.lagoon.core.mergetree.compact;

import io.lagoon.core.mergetree.KeyValueLayout;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.types.DataField;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Test-only reader of a primary-key Parquet data file, by physical column name, for the column
 * types the compaction tests use (INT, BIGINT, VARCHAR). It checks what was written on disk
 * independently of the engine's own reader.
 */
final class ParquetKeyValues {
  private ParquetKeyValues() {}

  static List<KeyValue> read(Path file, KeyValueLayout layout) throws IOException {
    List<KeyValue> out = new ArrayList<>();
    try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(), file)
        .withConf(new Configuration()).build()) {
      for (Group g = reader.read(); g != null; g = reader.read()) {
        Object[] key = new Object[layout.keyArity()];
        for (int i = 0; i < key.length; i++) {
          key[i] = value(g, KeyValueLayout.KEY_PREFIX + layout.keyFields().get(i).name(), layout.keyFields().get(i));
        }
        List<DataField> vf = layout.valueFields();
        Object[] value = new Object[vf.size()];
        for (int i = 0; i < value.length; i++) value[i] = value(g, vf.get(i).name(), vf.get(i));
        out.add(new KeyValue(new GenericInternalRow(key), g.getLong(KeyValueLayout.SEQUENCE_NUMBER, 0),
            (byte) g.getInteger(KeyValueLayout.VALUE_KIND, 0), new GenericInternalRow(value)));
      }
    }
    return out;
  }

  private static Object value(Group g, String column, DataField f) {
    if (g.getFieldRepetitionCount(column) == 0) return null;
    switch (f.type().root()) {
      case INT: return g.getInteger(column, 0);
      case BIGINT: return g.getLong(column, 0);
      case VARCHAR: return UTF8String.fromString(g.getString(column, 0));
      default: throw new IllegalArgumentException("test reader does not read " + f.type());
    }
  }
}
