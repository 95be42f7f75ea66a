package io.lagoon.core.mergetree.compact;

import io.lagoon.core.deletionvectors.BucketVectors;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.CloseableIterator;
import io.lagoon.core.mergetree.KeySections;
import io.lagoon.core.mergetree.KeyValueLayout;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.RunIterator;
import io.lagoon.core.mergetree.Section;
import io.lagoon.core.mergetree.SortedRunMerger;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.mergetree.engine.MergeFunction;
import io.lagoon.core.mergetree.engine.MergeFunctions;
import io.lagoon.core.mergetree.engine.RecordOrder;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.UncommittedFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Rewrites the files of one compaction unit of a bucket into one sorted run on the output level.
 * The files are split into key sections ({@link KeySections}); a section that is already a single
 * run needs no merge, so its files are only moved to the output level ("upgraded": same data
 * file, new metadata). Overlapping sections, and files whose retractions must go, are merged
 * with the table's merge engine and written in files rolling at {@code target-file-size}.
 * Adjacent merged sections share output files, so small sections do not each leave a small file.
 *
 * <p>In deletion-vector mode ({@link #withVectors}) the levels above the output are never merged:
 * inputs are read without the rows their vectors mark, every level-0 file is rewritten, and each
 * key written is looked up in the levels above; a live record found there is merged in as the
 * oldest record of the key and marked deleted in its file's vector. Retractions are always
 * dropped (the vector is what removes the older record). So above level 0 every key keeps one
 * live record, which is what lets readers skip merging. Rewritten files lose their vectors.
 */
public final class CompactRewriter {
  private final FileStoreTable table;
  private final Path bucketDir;
  private final KeyValueSource source;
  private final FileKeys keys;
  private final RecordOrder recordOrder;
  /** Deletion-vector mode: the bucket's vectors, else null. */
  private final BucketVectors vectors;
  /** Deletion-vector mode: the runs above the output level, looked up for superseded records. */
  private final List<PositionedRun> lookups = new ArrayList<>();
  private final boolean rewriteVectored;

  public CompactRewriter(FileStoreTable table, Path bucketDir, KeyValueSource source) {
    this(table, bucketDir, source, null, List.of(), false);
  }

  private CompactRewriter(FileStoreTable table, Path bucketDir, KeyValueSource source, BucketVectors vectors,
                          List<SortedRun> upper, boolean rewriteVectored) {
    this.table = table;
    this.bucketDir = bucketDir;
    this.source = source;
    TableSchema schema = table.schema();
    this.keys = FileKeys.of(schema);
    this.recordOrder = MergeFunctions.recordOrder(schema.options(), schema.fields());
    this.vectors = vectors;
    this.rewriteVectored = rewriteVectored;
    // When the newest record always wins, a looked-up record only needs its key and position.
    MergeFunction fn = MergeFunctions.create(schema.options(), schema.fields(), schema.primaryKeys());
    KeyValueSource lookupSource = fn.resultIsLastRecord() && !recordOrder.hasSequenceFields()
        ? source.keysOnly() : source;
    for (SortedRun run : upper) lookups.add(new PositionedRun(lookupSource, bucketDir, run.files(), vectors, keys));
  }

  /**
   * A rewriter in deletion-vector mode.
   *
   * @param upper the bucket's runs above the output level (not part of the unit)
   * @param rewriteVectored also rewrite unmerged files that carry a vector (a full compaction)
   */
  public static CompactRewriter withVectors(FileStoreTable table, Path bucketDir, KeyValueSource source,
                                            BucketVectors vectors, List<SortedRun> upper, boolean rewriteVectored) {
    return new CompactRewriter(table, bucketDir, source, vectors, upper, rewriteVectored);
  }

  /**
   * @param files every file of the unit (all of its runs)
   * @param dropDelete whether nothing older than these files can hold the keys, so retractions
   *     may vanish; otherwise they are written out to keep shadowing older records
   */
  public CompactResult rewrite(int outputLevel, boolean dropDelete, List<DataFileMeta> files) throws IOException {
    if (outputLevel < 1) throw new IllegalArgumentException("Compaction never writes level 0, got " + outputLevel);
    List<DataFileMeta> before = new ArrayList<>();
    List<DataFileMeta> after = new ArrayList<>();
    List<DataFileMeta> written = new ArrayList<>();
    List<List<SortedRun>> pending = new ArrayList<>();
    if (vectors != null) dropDelete = true;
    try {
      for (List<SortedRun> section : sections(files)) {
        if (section.size() > 1) {
          pending.add(section);
          continue;
        }
        for (DataFileMeta f : section.get(0).files()) {
          if ((dropDelete && mayHoldRetractions(f)) || mustRewrite(f)) {
            pending.add(List.of(SortedRun.ofSingle(f)));
            continue;
          }
          merge(pending, outputLevel, dropDelete, before, after, written);
          if (f.level != outputLevel) {
            before.add(f);
            after.add(withLevel(f, outputLevel));
          }
        }
      }
      merge(pending, outputLevel, dropDelete, before, after, written);
    } catch (IOException | RuntimeException e) {
      deleteQuietly(written);
      throw e;
    } finally {
      for (PositionedRun r : lookups) r.close();
    }
    return new CompactResult(before, after);
  }

  /**
   * In deletion-vector mode a level-0 file is always rewritten, so its keys are looked up above;
   * a full compaction also rewrites files that carry a vector, so the deleted rows go.
   */
  private boolean mustRewrite(DataFileMeta f) {
    if (vectors == null) return false;
    return f.level == 0 || (rewriteVectored && vectors.of(f.fileName) != null);
  }

  /** Unknown counts (files from writers that do not record them) must be assumed to hold some. */
  private static boolean mayHoldRetractions(DataFileMeta f) {
    return f.deleteRowCount == null || f.deleteRowCount > 0;
  }

  /** Merges the pending sections, in key order, into rolling files on the output level. */
  private void merge(List<List<SortedRun>> pending, int outputLevel, boolean dropDelete, List<DataFileMeta> before,
                     List<DataFileMeta> after, List<DataFileMeta> written) throws IOException {
    if (pending.isEmpty()) return;
    RollingKeyValueWriter out = new RollingKeyValueWriter(table, bucketDir, outputLevel);
    try {
      for (List<SortedRun> section : pending) writeSection(section, dropDelete, out);
      List<DataFileMeta> files = out.finish();
      written.addAll(files);
      after.addAll(files);
    } catch (IOException | RuntimeException e) {
      out.abort();
      throw e;
    }
    for (List<SortedRun> section : pending) {
      for (SortedRun run : section) {
        before.addAll(run.files());
        if (vectors != null) for (DataFileMeta f : run.files()) vectors.drop(f.fileName);
      }
    }
    pending.clear();
  }

  /** Key sections of the files, each as its sorted runs. */
  private List<List<SortedRun>> sections(List<DataFileMeta> files) {
    List<List<SortedRun>> out = new ArrayList<>();
    for (Section s : KeySections.split(files, new KeyValueLayout(table.schema()).keyTypes())) {
      List<SortedRun> runs = new ArrayList<>();
      for (List<DataFileMeta> run : s.runs()) runs.add(SortedRun.ofSorted(run));
      out.add(runs);
    }
    return out;
  }

  private void writeSection(List<SortedRun> section, boolean dropDelete, RollingKeyValueWriter out)
      throws IOException {
    List<CloseableIterator<KeyValue>> readers = new ArrayList<>();
    try {
      List<Iterator<KeyValue>> runs = new ArrayList<>();
      for (SortedRun run : section) {
        CloseableIterator<KeyValue> r = vectors == null ? new RunIterator(source, bucketDir, run.files())
            : new PositionedRun(source, bucketDir, run.files(), vectors, keys);
        readers.add(r);
        runs.add(r);
      }
      TableSchema schema = table.schema();
      MergeFunction fn = MergeFunctions.create(schema.options(), schema.fields(), schema.primaryKeys());
      SortedRunMerger merger;
      if (vectors != null) {
        InternalRow[] range = keyRange(section);
        for (PositionedRun l : lookups) l.restrict(range[0], range[1]);
        merger = SortedRunMerger.withLookups(runs, lookups, keys.comparator(), recordOrder, fn, this::supersede);
      } else if (dropDelete) {
        merger = new SortedRunMerger(runs, keys.comparator(), recordOrder, fn);
      } else {
        merger = SortedRunMerger.keepingDeletes(runs, keys.comparator(), recordOrder, fn);
      }
      while (merger.hasNext()) out.write(merger.next());
    } finally {
      for (CloseableIterator<KeyValue> r : readers) r.close();
    }
  }

  /** A looked-up record the merge replaced: its row is deleted from now on. */
  private void supersede(Iterator<KeyValue> lookup) {
    PositionedRun run = (PositionedRun) lookup;
    vectors.delete(run.currentFile(), run.currentPosition());
  }

  /** The smallest and largest key of a section's files. */
  private InternalRow[] keyRange(List<SortedRun> section) {
    InternalRow min = null;
    InternalRow max = null;
    for (SortedRun run : section) {
      for (DataFileMeta f : run.files()) {
        if (min == null || keys.comparator().compare(keys.minKey(f), min) < 0) min = keys.minKey(f);
        if (max == null || keys.comparator().compare(keys.maxKey(f), max) > 0) max = keys.maxKey(f);
      }
    }
    return new InternalRow[] {min, max};
  }

  /** The same data file moved to another level; nothing on disk changes. */
  static DataFileMeta withLevel(DataFileMeta f, int level) {
    return new DataFileMeta(f.fileName, f.fileSize, f.rowCount, f.minKey, f.maxKey, f.keyStats, f.valueStats,
        f.minSequenceNumber, f.maxSequenceNumber, f.schemaId, level, f.extraFiles, f.creationTimeMillis,
        f.deleteRowCount, f.embeddedIndex, f.fileSource, f.valueStatsCols, f.externalPath);
  }

  private void deleteQuietly(List<DataFileMeta> files) {
    UncommittedFiles.deleteInBucket(table, bucketDir, files);
  }
}
