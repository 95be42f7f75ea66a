package io.lagoon.core.mergetree.compact;

import io.lagoon.core.deletionvectors.BucketVectors;
import io.lagoon.core.deletionvectors.DeletionVector;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.LevelZeroVisibility;
import io.lagoon.core.mergetree.engine.MergeEngine;
import io.lagoon.core.mergetree.engine.MergeOptions;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.TableOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.Path;

/**
 * Compacts one bucket of a primary-key table: arranges its live files into runs, picks a unit
 * (universal compaction, or everything for a full compaction) and rewrites it. Retractions are
 * dropped only when the output level is at or above every level holding data, the condition
 * under which no older record of any key can remain below the output. A bucket whose files sit
 * above the configured {@code num-levels} keeps its higher top level.
 *
 * <p>Given the bucket's deletion vectors, compaction runs in deletion-vector mode (see
 * {@link CompactRewriter#withVectors}): the runs above the unit are looked up, and a full
 * compaction of a bucket that is already one run still rewrites the files carrying vectors.
 */
public final class BucketCompactor {
  private BucketCompactor() {}

  /**
   * @param partition the serialized partition row of the bucket
   * @param files every live file of the bucket
   * @param full true for a full compaction (everything into the top level), false for a
   *     universal-compaction pick
   * @return the files replaced and written, or empty when the bucket needs nothing
   */
  public static Optional<CompactResult> compact(FileStoreTable table, byte[] partition, int bucket,
                                                List<DataFileMeta> files, KeyValueSource source, boolean full)
      throws IOException {
    return compact(table, partition, bucket, files, source, full ? Mode.FULL : Mode.UNIVERSAL);
  }

  /** What a compaction picks. */
  public enum Mode {
    /** Paimon's universal compaction: only when the bucket's runs call for it. */
    UNIVERSAL,
    /** Universal, else every level-0 run moved up (tables whose readers skip level 0). */
    FORCE_UP_LEVEL0,
    /** Everything into the top level. */
    FULL;

    /**
     * What a write (and anything catching up after one) compacts with. Paimon reads first-row
     * tables without merging (level 0 hidden, no key in two levels), so such a bucket is left one
     * run at the top, its first rows kept (Paimon gets there by looking keys up in the levels
     * above; Lagoon for now merges the whole bucket). Deletion-vector tables push every level-0
     * file up; other tables compact only when universal compaction calls for it.
     */
    public static Mode afterWrite(TableSchema schema) {
      if (new MergeOptions(schema.options()).engine() == MergeEngine.FIRST_ROW) return FULL;
      return LevelZeroVisibility.hidden(schema) ? FORCE_UP_LEVEL0 : UNIVERSAL;
    }
  }

  public static Optional<CompactResult> compact(FileStoreTable table, byte[] partition, int bucket,
                                                List<DataFileMeta> files, KeyValueSource source, Mode mode)
      throws IOException {
    return compact(table, partition, bucket, files, source, mode, null);
  }

  /**
   * @param vectors the bucket's deletion vectors, updated in place, for a table in deletion-vector
   *     mode; null otherwise
   */
  public static Optional<CompactResult> compact(FileStoreTable table, byte[] partition, int bucket,
                                                List<DataFileMeta> files, KeyValueSource source, Mode mode,
                                                BucketVectors vectors) throws IOException {
    if (!table.hasPrimaryKey()) {
      throw new IllegalArgumentException("Table " + table.fullName() + " has no primary key; "
          + "merge-tree compaction applies to primary-key tables only");
    }
    TableOptions options = table.options();
    int numLevels = BucketRuns.numLevels(files, options.numLevels());
    List<LevelSortedRun> runs = BucketRuns.of(files, numLevels, FileKeys.of(table.schema()));
    Optional<CompactUnit> unit = mode == Mode.FULL ? UniversalCompaction.pickFull(numLevels, runs)
        : mode == Mode.FORCE_UP_LEVEL0 ? UniversalCompaction.of(options).pickForceUpLevel0(numLevels, runs)
        : UniversalCompaction.of(options).pick(numLevels, runs);
    if (unit.isEmpty() && mode == Mode.FULL && vectors != null) unit = vectoredFiles(numLevels, runs, vectors);
    Path bucketDir = table.paths().bucketDir(partition, bucket);
    if (unit.isEmpty()) {
      return vectors == null ? Optional.empty()
          : nonEmpty(rewriteMostlyDeleted(table, bucketDir, source, files, vectors, new CompactResult(List.of(), List.of())));
    }
    int outputLevel = unit.get().outputLevel();
    boolean dropDelete = outputLevel != 0 && outputLevel >= BucketRuns.highestLevel(runs);
    CompactRewriter rewriter;
    if (vectors == null) {
      rewriter = new CompactRewriter(table, bucketDir, source);
    } else {
      // A unit is a prefix of the runs (newest first): the rest lie above its output level.
      List<SortedRun> upper = new ArrayList<>();
      for (LevelSortedRun r : runs.subList(Math.min(unit.get().runs().size(), runs.size()), runs.size())) {
        if (r.level() > outputLevel) upper.add(r.run());
      }
      rewriter = CompactRewriter.withVectors(table, bucketDir, source, vectors, upper, mode == Mode.FULL);
    }
    CompactResult result = rewriter.rewrite(outputLevel, dropDelete, unit.get().files());
    if (vectors != null) result = rewriteMostlyDeleted(table, bucketDir, source, files, vectors, result);
    return nonEmpty(result);
  }

  private static Optional<CompactResult> nonEmpty(CompactResult result) {
    return result.isEmpty() ? Optional.empty() : Optional.of(result);
  }

  /**
   * Deletion-vector mode: files above level 0 the compaction did not touch whose vector marks more
   * than {@code compaction.delete-ratio-threshold} of their rows are rewritten in place (same level,
   * the marked rows gone); a file's live rows are already the newest of their keys, so nothing is
   * looked up. Keeps what a scan reads and discards bounded.
   */
  private static CompactResult rewriteMostlyDeleted(FileStoreTable table, Path bucketDir, KeyValueSource source,
                                                    List<DataFileMeta> files, BucketVectors vectors,
                                                    CompactResult done) throws IOException {
    double threshold = table.options().compactionDeleteRatioThreshold();
    Set<String> touched = new HashSet<>();
    for (DataFileMeta f : done.before()) touched.add(f.fileName);
    for (DataFileMeta f : done.after()) touched.add(f.fileName);
    List<DataFileMeta> before = new ArrayList<>(done.before());
    List<DataFileMeta> after = new ArrayList<>(done.after());
    for (DataFileMeta f : files) {
      if (f.level == 0 || touched.contains(f.fileName)) continue;
      DeletionVector dv = vectors.of(f.fileName);
      if (dv == null || dv.cardinality() <= threshold * f.rowCount) continue;
      CompactResult r = CompactRewriter.withVectors(table, bucketDir, source, vectors, List.of(), true)
          .rewrite(f.level, true, List.of(f));
      before.addAll(r.before());
      after.addAll(r.after());
    }
    return new CompactResult(before, after);
  }

  /** A bucket that is one run on the top level: its files with vectors, rewritten in place. */
  private static Optional<CompactUnit> vectoredFiles(int numLevels, List<LevelSortedRun> runs,
                                                     BucketVectors vectors) {
    if (runs.size() != 1) return Optional.empty();
    List<DataFileMeta> withVectors = new ArrayList<>();
    for (DataFileMeta f : runs.get(0).run().files()) if (vectors.of(f.fileName) != null) withVectors.add(f);
    if (withVectors.isEmpty()) return Optional.empty();
    return Optional.of(new CompactUnit(runs.get(0).level(),
        List.of(new LevelSortedRun(runs.get(0).level(), SortedRun.ofSorted(withVectors)))));
  }
}
