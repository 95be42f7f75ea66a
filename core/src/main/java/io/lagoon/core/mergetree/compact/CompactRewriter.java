package io.lagoon.core.mergetree.compact;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.KeySections;
import io.lagoon.core.mergetree.KeyValueLayout;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.RunIterator;
import io.lagoon.core.mergetree.Section;
import io.lagoon.core.mergetree.SortedRunMerger;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.mergetree.engine.MergeFunction;
import io.lagoon.core.mergetree.engine.MergeFunctions;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * Rewrites the files of one compaction unit of a bucket into one sorted run on the output level.
 * The files are split into key sections ({@link KeySections}); a section that is already a single
 * run needs no merge, so its files are only moved to the output level ("upgraded": same data
 * file, new metadata). Overlapping sections, and files whose retractions must go, are merged
 * with the table's merge engine and written in files rolling at {@code target-file-size}.
 * Adjacent merged sections share output files, so small sections do not each leave a small file.
 */
public final class CompactRewriter {
  private final FileStoreTable table;
  private final Path bucketDir;
  private final KeyValueSource source;
  private final FileKeys keys;
  private final Comparator<KeyValue> recordOrder;

  public CompactRewriter(FileStoreTable table, Path bucketDir, KeyValueSource source) {
    this.table = table;
    this.bucketDir = bucketDir;
    this.source = source;
    TableSchema schema = table.schema();
    this.keys = FileKeys.of(schema);
    this.recordOrder = MergeFunctions.recordOrder(schema.options(), schema.fields());
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
    try {
      for (List<SortedRun> section : sections(files)) {
        if (section.size() > 1) {
          pending.add(section);
          continue;
        }
        for (DataFileMeta f : section.get(0).files()) {
          if (dropDelete && mayHoldRetractions(f)) {
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
    }
    return new CompactResult(before, after);
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
      for (SortedRun run : section) before.addAll(run.files());
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
    List<RunIterator> readers = new ArrayList<>();
    try {
      List<Iterator<KeyValue>> runs = new ArrayList<>();
      for (SortedRun run : section) {
        RunIterator r = new RunIterator(source, bucketDir, run.files());
        readers.add(r);
        runs.add(r);
      }
      TableSchema schema = table.schema();
      MergeFunction fn = MergeFunctions.create(schema.options(), schema.fields(), schema.primaryKeys());
      SortedRunMerger merger = dropDelete
          ? new SortedRunMerger(runs, keys.comparator(), recordOrder, fn)
          : SortedRunMerger.keepingDeletes(runs, keys.comparator(), recordOrder, fn);
      while (merger.hasNext()) out.write(merger.next());
    } finally {
      for (RunIterator r : readers) r.close();
    }
  }

  /** The same data file moved to another level; nothing on disk changes. */
  static DataFileMeta withLevel(DataFileMeta f, int level) {
    return new DataFileMeta(f.fileName, f.fileSize, f.rowCount, f.minKey, f.maxKey, f.keyStats, f.valueStats,
        f.minSequenceNumber, f.maxSequenceNumber, f.schemaId, level, f.extraFiles, f.creationTimeMillis,
        f.deleteRowCount, f.embeddedIndex, f.fileSource, f.valueStatsCols, f.externalPath);
  }

  private void deleteQuietly(List<DataFileMeta> files) {
    for (DataFileMeta f : files) {
      try {
        table.io().delete(new Path(bucketDir, f.fileName), false);
      } catch (IOException ignore) {
        // an unreferenced file; orphan cleanup removes it
      }
    }
  }
}
