package io.lagoon.core.system;

import static io.lagoon.core.system.SystemValues.bigint;
import static io.lagoon.core.system.SystemValues.field;
import static io.lagoon.core.system.SystemValues.integer;
import static io.lagoon.core.system.SystemValues.str;
import static io.lagoon.core.system.SystemValues.string;
import static io.lagoon.core.system.SystemValues.timestamp;

import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * {@code t$partitions} and {@code t$buckets}: the live files of the latest snapshot summed per
 * partition (or per partition and bucket): rows, bytes, files, the newest file's creation time.
 */
final class PartitionsTable implements SystemTable {
  private final boolean buckets;

  PartitionsTable(boolean buckets) {
    this.buckets = buckets;
  }

  @Override public String name() { return buckets ? "buckets" : "partitions"; }

  @Override
  public List<DataField> fields() {
    List<DataField> out = new ArrayList<>();
    out.add(field(0, "partition", string(true)));
    if (buckets) out.add(field(1, "bucket", integer(false)));
    int id = buckets ? 2 : 1;
    out.add(field(id, "record_count", bigint(false)));
    out.add(field(id + 1, "file_size_in_bytes", bigint(false)));
    out.add(field(id + 2, "file_count", bigint(false)));
    out.add(field(id + 3, "last_update_time", timestamp(true)));
    return out;
  }

  @Override
  public List<InternalRow> rows(FileStoreTable table, io.lagoon.core.snapshot.Snapshot at,
                                List<org.apache.spark.sql.sources.Filter> partitionFilters) throws IOException {
    Map<String, long[]> sums = new LinkedHashMap<>();
    Map<String, Object[]> keys = new LinkedHashMap<>();
    for (ManifestEntry e : LiveEntries.of(table, at, partitionFilters)) {
      String partition = LiveEntries.partition(table, e.partition);
      String key = buckets ? partition + "/" + e.bucket : partition;
      keys.putIfAbsent(key, new Object[] {partition, e.bucket});
      long[] s = sums.computeIfAbsent(key, k -> new long[] {0, 0, 0, Long.MIN_VALUE});
      s[0] += e.file.rowCount;
      s[1] += e.file.fileSize;
      s[2]++;
      if (e.file.creationTimeMillis != null) s[3] = Math.max(s[3], e.file.creationTimeMillis);
    }
    List<InternalRow> out = new ArrayList<>();
    for (Map.Entry<String, long[]> g : sums.entrySet()) {
      long[] s = g.getValue();
      Object[] k = keys.get(g.getKey());
      Long updated = s[3] == Long.MIN_VALUE ? null : SystemValues.wallClockMicros(s[3]);
      out.add(buckets ? SystemValues.row(str(k[0]), k[1], s[0], s[1], s[2], updated)
          : SystemValues.row(str(k[0]), s[0], s[1], s[2], updated));
    }
    return out;
  }
}
