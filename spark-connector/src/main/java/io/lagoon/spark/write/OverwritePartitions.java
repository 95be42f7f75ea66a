package io.lagoon.spark.write;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.PaimonType;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.sources.Filter;

/** Which partitions an overwrite replaces, as a predicate on partition rows; null for a plain append. */
final class OverwritePartitions {
  private OverwritePartitions() {}

  /** The partitions of written files, for {@link #of}. */
  static List<byte[]> partitionsOf(List<ManifestEntry> files) {
    List<byte[]> out = new java.util.ArrayList<>();
    for (ManifestEntry e : files) out.add(e.partition);
    return out;
  }

  /** @param written the partitions (serialized) the write produced rows for */
  static Predicate<InternalRow> of(FileStoreTable table, LagoonWriteBuilder.OverwriteMode mode, Filter[] filters,
                                   List<byte[]> written) {
    switch (mode) {
      case NONE:
        return null;
      case FILTER:
        return PartitionFilters.matcher(filters, table.schema().partitionFields());
      case DYNAMIC: {
        // Dynamic overwrite replaces exactly the partitions this write produced rows for.
        Set<String> partitions = new HashSet<>();
        for (byte[] p : written) partitions.add(Arrays.toString(p));
        List<PaimonType> types = table.schema().partitionTypes();
        return row -> partitions.contains(Arrays.toString(BinaryRows.serialize(row, types)));
      }
      default:
        throw new IllegalStateException(mode.name());
    }
  }
}
