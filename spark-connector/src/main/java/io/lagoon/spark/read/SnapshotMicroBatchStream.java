package io.lagoon.spark.read;

import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Optional;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.connector.read.streaming.Offset;
import org.apache.spark.sql.connector.read.streaming.ReadLimit;
import org.apache.spark.sql.connector.read.streaming.SupportsTriggerAvailableNow;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A table read as a stream (Structured Streaming). Offsets are snapshot ids in the checkpoint: the
 * last snapshot whose changes were read. With {@code scan.mode} {@code latest-full} (the default)
 * the first batch reads the whole table as of the latest snapshot, then each batch the records the
 * APPEND commits after the previous offset wrote (or their changelog files, where the table has a
 * producer; {@code latest}: only changes from now on;
 * {@code from-snapshot} with {@code scan.snapshot-id}: changes from that snapshot on; compactions
 * bring no new rows; {@code scan.tag-name} instead of the id starts at a tag's snapshot). A
 * primary-key table's retractions are left out of the rows; streamed as {@code t$audit_log}, every
 * change comes with its row kind, retractions included, and the first batch's rows as they stand
 * with the kind of their last record. {@code Trigger.AvailableNow} reads up to the snapshot that was the latest when the query
 * started, and stops. With {@code consumer-id} the stream starts where that consumer stands and
 * records its progress there once a batch is committed (when Spark commits the offsets or asks
 * for the next batch from them), so snapshot expiry keeps what it has not read.
 */
final class SnapshotMicroBatchStream implements MicroBatchStream, SupportsTriggerAvailableNow {
  /** Offset meaning "nothing read yet, the first batch reads the full state". */
  private static final long FULL = -1;

  private final FileStoreTable table;
  private final StructType schema;
  /** Whether rows are led by their row kind and changes keep their retractions ({@code t$audit_log}). */
  private final boolean audit;
  private final long initial;
  /** The consumer whose progress the stream records ({@code consumer-id}); null for none. */
  private final String consumer;
  /** With Trigger.AvailableNow: the last snapshot to read; null otherwise. */
  private Long availableNow;
  /** The scan of the batch last planned: Spark asks for its reader factory next. */
  private org.apache.spark.sql.connector.read.Scan planned;

  SnapshotMicroBatchStream(FileStoreTable table, StructType schema, CaseInsensitiveStringMap options, boolean audit) {
    this.table = table;
    this.schema = schema;
    this.audit = audit;
    this.consumer = options.get("consumer-id");
    Long fromConsumer = null;
    if (consumer != null) {
      try {
        fromConsumer = consumers().all().get(consumer);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the consumers of " + table.fullName() + ": " + e.getMessage(), e);
      }
    }
    this.initial = fromConsumer != null ? fromConsumer - 1 : initialOffset(table, options);
  }

  /**
   * Refuses {@code consumer-id} on a batch read. A batch scan cannot know whether the job that
   * reads it commits its own output, so it could only record the consumer too early (a failed run
   * would lose rows) or never (silently, as Paimon's batch reads do); a stream records it once
   * Spark has committed the batch.
   */
  static void refuseConsumerOnBatch(String table, CaseInsensitiveStringMap options) {
    String consumer = options.get("consumer-id");
    if (consumer == null) return;
    throw new IllegalArgumentException("The read option consumer-id ('" + consumer + "') works on streams only, "
        + "not on the batch read of " + table + ": a batch read cannot record what its job has committed. Read "
        + "with spark.readStream and Trigger.AvailableNow (the consumer advances once each batch commits), or read "
        + "with incremental-between and record the next snapshot with CALL sys.reset_consumer after the job's own "
        + "write");
  }

  private io.lagoon.core.snapshot.ConsumerManager consumers() {
    return new io.lagoon.core.snapshot.ConsumerManager(table.io(), table.metadataDir());
  }

  private static long initialOffset(FileStoreTable table, CaseInsensitiveStringMap options) {
    String mode = options.getOrDefault("scan.mode", "latest-full").toLowerCase(Locale.ROOT);
    switch (mode) {
      case "latest-full":
      case "default":
        return FULL;
      case "latest":
        return latest(table);
      case "from-snapshot": {
        String id = options.get("scan.snapshot-id");
        String tag = options.get("scan.tag-name");
        if (id == null && tag != null) {
          try {
            return table.timeTravel().tag(tag).id - 1;
          } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the tags of " + table.fullName() + ": " + e.getMessage(), e);
          }
        }
        if (id == null) {
          throw new IllegalArgumentException("Stream of " + table.fullName()
              + ": scan.mode 'from-snapshot' needs scan.snapshot-id or scan.tag-name");
        }
        try {
          return Long.parseLong(id.trim()) - 1;
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("Stream of " + table.fullName() + ": scan.snapshot-id must be a whole number, got '"
              + id + "'");
        }
      }
      default:
        throw new IllegalArgumentException("Stream of " + table.fullName() + ": scan.mode '" + mode
            + "' is not supported; use latest-full, latest or from-snapshot");
    }
  }

  private static long latest(FileStoreTable table) {
    try {
      return table.snapshots().latestId().orElse(0L);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the snapshots of " + table.fullName() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Offset initialOffset() {
    return new SnapshotOffset(initial);
  }

  @Override
  public Offset latestOffset() {
    return latestOffset(null, ReadLimit.allAvailable());
  }

  @Override
  public Offset latestOffset(Offset start, ReadLimit limit) {
    long latest = latest(table);
    if (availableNow != null) latest = Math.min(latest, availableNow);
    long from = start == null ? initial : ((SnapshotOffset) start).id;
    // Spark asks from the last committed batch's end: everything up to it is read for good.
    if (start != null) commit(start);
    // Nothing committed yet: stay at the start (no empty batches).
    if (latest == 0) return new SnapshotOffset(from);
    return new SnapshotOffset(from == FULL ? latest : Math.max(from, latest));
  }

  @Override
  public ReadLimit getDefaultReadLimit() {
    return ReadLimit.allAvailable();
  }

  @Override
  public void prepareForTriggerAvailableNow() {
    availableNow = latest(table);
  }

  @Override
  public synchronized InputPartition[] planInputPartitions(Offset start, Offset end) {
    long from = ((SnapshotOffset) start).id;
    long to = ((SnapshotOffset) end).id;
    if (from == FULL && audit) {
      try {
        if (table.snapshots().latestId().isEmpty()) {
          planned = null;
          return new InputPartition[0];
        }
        AuditLogScan full = new AuditLogScan(table).atSnapshot(table.snapshots().snapshot(to)).withoutRetractions();
        planned = full;
        return full.planInputPartitions();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the snapshots of " + table.fullName() + ": " + e.getMessage(), e);
      }
    }
    if (from == FULL) {
      LagoonScan full = new LagoonScan(table, schema, schema, java.util.List.of(), null);
      try {
        Optional<Snapshot> s = table.snapshots().latestId().isPresent() ? Optional.of(table.snapshots().snapshot(to))
            : Optional.empty();
        if (s.isEmpty()) {
          planned = null;
          return new InputPartition[0];
        }
        full.atSnapshot(s.get());
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the snapshots of " + table.fullName() + ": " + e.getMessage(), e);
      }
      planned = full;
      return full.planInputPartitions();
    }
    AuditLogScan changes = new AuditLogScan(table, audit, AuditLogScan.incrementalFiles(table,
        new IncrementalOptions.Range(from, to, false)));
    if (!audit) changes.withoutRetractions();
    planned = changes;
    return changes.planInputPartitions();
  }

  @Override
  public synchronized PartitionReaderFactory createReaderFactory() {
    if (planned == null) return new AuditLogScan(table, audit, java.util.List.of()).createReaderFactory();
    return planned.toBatch().createReaderFactory();
  }

  @Override
  public Offset deserializeOffset(String json) {
    return SnapshotOffset.parse(json);
  }

  /** Progress lives in Spark's checkpoint; a named consumer also records it in the table. */
  @Override
  public void commit(Offset end) {
    long id = ((SnapshotOffset) end).id;
    if (consumer == null || id < 0) return;
    try {
      consumers().reset(consumer, id + 1);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot record consumer " + consumer + " of " + table.fullName() + ": "
          + e.getMessage(), e);
    }
  }

  @Override
  public void stop() {
  }

  /** A snapshot id, as the checkpoint stores it: {@code {"snapshot":12}}. */
  static final class SnapshotOffset extends Offset {
    final long id;

    SnapshotOffset(long id) {
      this.id = id;
    }

    @Override
    public String json() {
      return "{\"snapshot\":" + id + "}";
    }

    static SnapshotOffset parse(String json) {
      String digits = json.replaceAll("[^0-9-]", "");
      try {
        return new SnapshotOffset(Long.parseLong(digits));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("Not a Lagoon stream offset: " + json);
      }
    }
  }
}
