package io.lagoon.core.dynamicbucket;

import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.TableOptions;
import java.io.IOException;
import java.io.Serializable;

/**
 * How one write into a dynamic-bucket table assigns buckets, fixed where it is planned and sent to
 * its tasks: the index it starts from, the number of assigners and the bucket bounds.
 *
 * <p>The number of assigners is {@code dynamic-bucket.assigner-parallelism} when set, else the
 * cluster's default parallelism (Paimon's Spark writer takes the larger of that and
 * {@code spark.sql.shuffle.partitions}, which starts a small table with 200 buckets of a few rows);
 * then at most {@code dynamic-bucket.initial-buckets} and {@code dynamic-bucket.max-buckets}. Each
 * assigner starts its own bucket, so that is also how many buckets a new partition starts with.
 */
public final class AssignerPlan implements Serializable {
  public final int numAssigners;
  private final HashIndexSource index;
  /** Cross-partition tables: the table and base snapshot whose files say where keys live; else null. */
  private final FileStoreTable crossPartitionTable;
  private final long baseSnapshotId;
  private final long targetRowNum;
  private final int maxBuckets;
  /**
   * Cross-partition overwrite of some partitions: the partitions it replaces (a serializable test
   * of partition rows), whose keys count as gone; null when none are known up front.
   */
  private java.util.function.Predicate<org.apache.spark.sql.catalyst.InternalRow> replaced;

  private AssignerPlan(HashIndexSource index, int numAssigners, long targetRowNum, int maxBuckets) {
    this(index, numAssigners, targetRowNum, maxBuckets, null, -1);
  }

  private AssignerPlan(HashIndexSource index, int numAssigners, long targetRowNum, int maxBuckets,
                       FileStoreTable crossPartitionTable, long baseSnapshotId) {
    this.crossPartitionTable = crossPartitionTable;
    this.baseSnapshotId = baseSnapshotId;
    this.index = index;
    this.numAssigners = numAssigners;
    this.targetRowNum = targetRowNum;
    this.maxBuckets = maxBuckets;
  }

  /** The number of assigners of a write into the table, on a cluster of that default parallelism. */
  public static int numAssigners(TableOptions o, int defaultParallelism) {
    int n = o.dynamicBucketAssigners(TableOptions.DYNAMIC_BUCKET_ASSIGNER_PARALLELISM);
    if (n == 0) n = Math.max(1, defaultParallelism);
    int initial = o.dynamicBucketAssigners(TableOptions.DYNAMIC_BUCKET_INITIAL_BUCKETS);
    if (initial > 0) n = Math.min(n, initial);
    int max = o.dynamicBucketMaxBuckets();
    if (max > 0) n = Math.min(n, max);
    return n;
  }

  /**
   * @param baseSnapshotId the write's base snapshot, -1 for none (an overwrite: every key is new)
   * @param numAssigners as {@link #numAssigners} said when the write's distribution was planned
   */
  public static AssignerPlan of(FileStoreTable table, long baseSnapshotId, int numAssigners) throws IOException {
    TableOptions o = table.options();
    if (isCrossPartition(table)) {
      return new AssignerPlan(null, numAssigners, o.dynamicBucketTargetRowNum(), o.dynamicBucketMaxBuckets(), table,
          baseSnapshotId);
    }
    return new AssignerPlan(SnapshotHashIndex.of(table, baseSnapshotId), numAssigners, o.dynamicBucketTargetRowNum(),
        o.dynamicBucketMaxBuckets());
  }

  /** A dynamic-bucket table whose primary key leaves out a partition column (Paimon's cross-partition upsert). */
  public static boolean isCrossPartition(FileStoreTable table) {
    return table.hasPrimaryKey() && table.options().bucket() == -1
        && !table.schema().primaryKeys().containsAll(table.schema().partitionKeys());
  }

  public boolean crossPartition() {
    return crossPartitionTable != null;
  }

  /** A task's assigner of a cross-partition table, reading keys through {@code source}. */
  public CrossPartitionAssigner newCrossPartitionAssigner(io.lagoon.core.mergetree.KeyValueSource source) {
    return new CrossPartitionAssigner(crossPartitionTable, baseSnapshotId, source, numAssigners, targetRowNum,
        maxBuckets, replaced);
  }

  /**
   * A cross-partition overwrite of the partitions {@code partitions} selects (a serializable
   * predicate): keys living there count as gone, so they are neither retracted nor kept in their
   * buckets, and those partitions' buckets fill afresh.
   */
  public AssignerPlan replacing(java.util.function.Predicate<org.apache.spark.sql.catalyst.InternalRow> partitions) {
    this.replaced = partitions;
    return this;
  }

  /** For tests: an index given directly. */
  static AssignerPlan of(HashIndexSource index, int numAssigners, long targetRowNum, int maxBuckets) {
    return new AssignerPlan(index, numAssigners, targetRowNum, maxBuckets);
  }

  /** A task's assigner (each task keeps the partitions it meets). */
  public DynamicBucketAssigner newAssigner() {
    return new DynamicBucketAssigner(index, numAssigners, targetRowNum, maxBuckets);
  }
}
