package io.lagoon.core.mergetree.compact;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.KeyComparator;
import io.lagoon.core.mergetree.KeyValueLayout;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.types.PaimonType;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The first and last key of data files, decoded from their manifest metadata and compared in key
 * order. Decoded keys are cached per metadata object, since sorting compares each file many times.
 */
public final class FileKeys {
  private final List<PaimonType> keyTypes;
  private final KeyComparator comparator;
  private final Map<DataFileMeta, InternalRow[]> cache = new IdentityHashMap<>();

  public FileKeys(List<PaimonType> keyTypes) {
    this.keyTypes = List.copyOf(keyTypes);
    this.comparator = new KeyComparator(keyTypes);
  }

  public static FileKeys of(TableSchema schema) {
    return new FileKeys(new KeyValueLayout(schema).keyTypes());
  }

  public KeyComparator comparator() {
    return comparator;
  }

  public InternalRow minKey(DataFileMeta f) {
    return decode(f)[0];
  }

  public InternalRow maxKey(DataFileMeta f) {
    return decode(f)[1];
  }

  /** Orders files by first key, then last key. */
  public int compareRange(DataFileMeta a, DataFileMeta b) {
    int c = comparator.compare(minKey(a), minKey(b));
    return c != 0 ? c : comparator.compare(maxKey(a), maxKey(b));
  }

  private InternalRow[] decode(DataFileMeta f) {
    return cache.computeIfAbsent(f, n -> new InternalRow[] {
        BinaryRows.deserialize(f.minKey, keyTypes), BinaryRows.deserialize(f.maxKey, keyTypes)});
  }
}
