package io.lagoon.spark;

import io.lagoon.core.table.FileStoreTable;
import io.lagoon.spark.read.AuditLogScan;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** {@code t$audit_log}: the table's rows led by their row kind ({@link AuditLogScan}); read only, in batches or as a stream. */
final class LagoonAuditLogTable implements SupportsRead {
  private final FileStoreTable table;

  LagoonAuditLogTable(FileStoreTable table) {
    this.table = table;
  }

  @Override public String name() { return table.fullName() + "$audit_log"; }
  @Override public StructType schema() { return AuditLogScan.schemaOf(table); }
  @Override
  public Set<TableCapability> capabilities() {
    return Set.of(TableCapability.BATCH_READ, TableCapability.MICRO_BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    io.lagoon.spark.read.IncrementalOptions.Range range = io.lagoon.spark.read.IncrementalOptions.range(table, options);
    if (range == null) return () -> new AuditLogScan(table).streamedWith(options);
    org.apache.spark.sql.connector.read.Scan scan = io.lagoon.spark.read.IncrementalOptions.scan(table, range, true);
    return () -> scan;
  }
}
