package io.lagoon.core.system;

import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import java.io.IOException;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * A metadata table of a data table ({@code t$snapshots}, {@code t$files}, ...): Paimon's name and
 * columns, its rows computed from the table's metadata files when read (nothing is stored).
 */
public interface SystemTable {
  /** The suffix after {@code $}. */
  String name();

  /** The columns, as Paimon declares them. */
  List<DataField> fields();

  /**
   * The rows, as Spark values of {@link #fields()}: as of snapshot {@code at} (null: the latest)
   * for the tables that list files, manifests, partitions or buckets, which also read only the
   * manifests and files the filters on table partition columns admit ({@link RenderedPartitionFilters};
   * a superset of the matching rows). Tables about the table's history or settings answer as they
   * are now, whatever the snapshot and filters.
   */
  List<InternalRow> rows(FileStoreTable table, io.lagoon.core.snapshot.Snapshot at,
                         List<org.apache.spark.sql.sources.Filter> partitionFilters) throws IOException;
}
