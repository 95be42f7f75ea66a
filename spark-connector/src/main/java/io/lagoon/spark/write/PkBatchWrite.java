package io.lagoon.spark.write;

import io.lagoon.core.dynamicbucket.AssignerPlan;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.KeyValueFileReader;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.LevelZeroVisibility;
import io.lagoon.core.mergetree.engine.MergeEngine;
import io.lagoon.core.mergetree.engine.MergeOptions;
import io.lagoon.core.mergetree.write.KeyValueCommit;
import io.lagoon.core.mergetree.write.KeyValueWriteResult;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.sources.Filter;

/**
 * Driver side of a primary-key table write: hands out key-value writers that all start from the
 * same snapshot, then commits every task's files (and compactions) together.
 */
class PkBatchWrite implements BatchWrite, LagoonStreamingWrite.BatchCommit {
  final FileStoreTable table;
  private final LagoonWriteBuilder.OverwriteMode mode;
  private final Filter[] overwriteFilters;
  final long baseSnapshotId;
  /** Reads the table's files for compaction, in the tasks and again at commit; null if the write does not compact. */
  KeyValueSource source;
  /** Dynamic buckets: how the tasks assign them (set by {@link #prepare}); null for fixed buckets. */
  AssignerPlan assigners;

  /** A MERGE run as an upsert: its rows must have distinct keys. */
  private final boolean mergeUpsert;
  final WriteCommit commits;

  PkBatchWrite(FileStoreTable table, LagoonWriteBuilder.OverwriteMode mode, Filter[] overwriteFilters) {
    this(table, mode, overwriteFilters, false);
  }

  PkBatchWrite(FileStoreTable table, LagoonWriteBuilder.OverwriteMode mode, Filter[] overwriteFilters,
               boolean mergeUpsert) {
    this.mergeUpsert = mergeUpsert;
    this.table = table;
    this.commits = new WriteCommit(table);
    this.mode = mode;
    this.overwriteFilters = overwriteFilters;
    this.baseSnapshotId = BaseSnapshot.latest(table);
  }

  /**
   * Writers get a reader of the table's files so they can compact buckets that have too many
   * sorted runs. An overwrite compacts only its own files, and only where readers skip level 0.
   */
  @Override
  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    long base = prepare();
    return commits.started(new PkWriterFactory(table, base, source, !overwritesSome, assigners, mergeUpsert,
        mode != LagoonWriteBuilder.OverwriteMode.NONE));
  }

  /** Builds the compaction source (kept for the commit) and returns the snapshot the writers start from. */
  long prepare() {
    boolean compact = !table.options().writeOnly() && (mode == LagoonWriteBuilder.OverwriteMode.NONE
        || LevelZeroVisibility.hidden(table.schema()));
    source = compact ? KeyValueFileReader.buildForCompaction(SparkSession.active(), table) : null;
    // An overwrite starts its buckets afresh (it may also change the bucket count).
    long base = mode == LagoonWriteBuilder.OverwriteMode.NONE ? baseSnapshotId : -1;
    if (table.options().bucket() == -1) {
      if (AssignerPlan.isCrossPartition(table)) {
        // Overwriting the whole table leaves no key anywhere else: every key is new (base -1).
        overwritesSome = mode != LagoonWriteBuilder.OverwriteMode.NONE && !wholeTable();
        if (overwritesSome) {
          requireMovingKeys();
          // Keys of new rows may live in partitions left alone: the writers find them on the real
          // base and retract them there, and do not compact (their buckets hold files the
          // overwrite drops); the commit compacts where readers skip level 0.
          base = baseSnapshotId;
        }
        // Its tasks read where keys live, whether or not the write compacts.
        if (source == null) source = KeyValueFileReader.buildForCompaction(SparkSession.active(), table);
      }
      try {
        assigners = AssignerPlan.of(table, base, BucketDistribution.groups(table));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("Cannot read the bucket index of " + table.fullName() + ": "
            + e.getMessage(), e);
      }
      // Static mode names the replaced partitions up front: their keys count as gone.
      if (overwritesSome && mode == LagoonWriteBuilder.OverwriteMode.FILTER) {
        assigners.replacing(PartitionFilters.matcher(overwriteFilters, table.schema().partitionFields()));
      }
    }
    return base;
  }

  /**
   * An overwrite of some partitions moves the keys of new rows out of the others; only the
   * deduplicate engine moves keys (the others keep a key where it lives, or its first row).
   */
  private void requireMovingKeys() {
    MergeEngine engine = new MergeOptions(table.schema().options()).engine();
    if (engine != MergeEngine.DEDUPLICATE) {
      throw new UnsupportedOperationException("Cannot overwrite partitions of " + table.fullName() + ": its primary "
          + "key " + table.schema().primaryKeys() + " leaves out partition columns (a cross-partition upsert table) "
          + "and its merge engine '" + engine + "' keeps a key in the partition it lives in, so a new row whose key "
          + "lives in a partition left alone could not be written into the overwritten ones; overwrite the whole "
          + "table (static mode, no PARTITION clause), or DELETE then INSERT");
    }
  }

  /**
   * Whether the write overwrites some partitions of a cross-partition table (see {@link #prepare});
   * its tasks then do not compact.
   */
  boolean overwritesSome;

  /** Whether this is an overwrite of every partition (no filter but ones that always hold). */
  private boolean wholeTable() {
    if (mode != LagoonWriteBuilder.OverwriteMode.FILTER) return false;
    for (Filter f : overwriteFilters) {
      if (!(f instanceof org.apache.spark.sql.sources.AlwaysTrue)) return false;
    }
    return true;
  }

  @Override
  public void commitThrough(WriterCommitMessage[] messages, FileStoreTable committing) {
    this.committing = committing;
    List<KeyValueWriteResult> results = new ArrayList<>();
    List<ManifestEntry> created = new ArrayList<>();
    List<byte[]> rowPartitions = new ArrayList<>();
    for (WriterCommitMessage m : messages) {
      if (!(m instanceof PkCommitMessage)) continue;
      results.add(((PkCommitMessage) m).result());
      created.addAll(((PkCommitMessage) m).createdFiles());
      rowPartitions.addAll(((PkCommitMessage) m).result().rowPartitions);
    }
    // A dynamic overwrite replaces the partitions of its rows, not those that only got retractions.
    commits.run(created,
        () -> commitResults(results, OverwritePartitions.of(table, mode, overwriteFilters, rowPartitions)));
  }

  void commitResults(List<KeyValueWriteResult> results, Predicate<InternalRow> overwrite) throws IOException {
    if (overwritesSome) {
      KeyValueCommit.commitOverwriteLocatingKeys(committing, results, overwrite, source, baseSnapshotId);
    } else {
      KeyValueCommit.commit(committing, results, overwrite, source);
    }
  }

  /** The table commits go through: this write's, or a copy carrying a streaming batch's identity. */
  private FileStoreTable committing;

  @Override
  public void commit(WriterCommitMessage[] messages) {
    commitThrough(messages, table);
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    List<ManifestEntry> created = new ArrayList<>();
    for (WriterCommitMessage m : messages) {
      if (m instanceof PkCommitMessage) created.addAll(((PkCommitMessage) m).createdFiles());
    }
    commits.abort(created);
  }
}
