package io.lagoon.spark;

import io.lagoon.core.system.SystemTable;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.SparkTypes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A metadata table ({@code t$snapshots}, ...) as a Spark table: read only, its rows computed on
 * the driver when the query is planned and handed to Spark as a local relation.
 */
final class LagoonSystemTable implements SupportsRead {
  private final SystemTable system;
  private final FileStoreTable table;
  /** The snapshot it describes (time travel); null for the latest. */
  private final io.lagoon.core.snapshot.Snapshot at;

  LagoonSystemTable(SystemTable system, FileStoreTable table) {
    this(system, table, null);
  }

  LagoonSystemTable(SystemTable system, FileStoreTable table, io.lagoon.core.snapshot.Snapshot at) {
    this.system = system;
    this.table = table;
    this.at = at;
  }

  @Override
  public String name() {
    return table.fullName() + "$" + system.name();
  }

  @Override
  public StructType schema() {
    return SparkTypes.toSpark(system.fields());
  }

  @Override
  public Set<TableCapability> capabilities() {
    return Set.of(TableCapability.BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    return new Builder();
  }

  /** Takes the filters on {@code partition} that narrow the manifests read; Spark checks every filter on the rows. */
  private final class Builder implements ScanBuilder, org.apache.spark.sql.connector.read.SupportsPushDownFilters {
    private org.apache.spark.sql.sources.Filter[] pushed = new org.apache.spark.sql.sources.Filter[0];

    @Override
    public org.apache.spark.sql.sources.Filter[] pushFilters(org.apache.spark.sql.sources.Filter[] filters) {
      pushed = filters;
      return filters;
    }

    @Override
    public org.apache.spark.sql.sources.Filter[] pushedFilters() {
      return pushed;
    }

    @Override
    public Scan build() {
      return new Rows(io.lagoon.core.system.RenderedPartitionFilters.of(table.schema(), java.util.Arrays.asList(pushed)));
    }
  }

  private final class Rows implements LocalScan {
    private final java.util.List<org.apache.spark.sql.sources.Filter> partitionFilters;

    Rows(java.util.List<org.apache.spark.sql.sources.Filter> partitionFilters) {
      this.partitionFilters = partitionFilters;
    }

    @Override
    public InternalRow[] rows() {
      try {
        return system.rows(table, at, partitionFilters).toArray(new InternalRow[0]);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + name() + ": " + e.getMessage(), e);
      }
    }

    @Override
    public StructType readSchema() {
      return schema();
    }

    @Override
    public String description() {
      return name();
    }
  }
}
